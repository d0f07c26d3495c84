/**
 * Images the sandbox serves itself, so the demo works offline: campaign images (16:9, a gradient
 * with the title) and business logos (square, initials), rendered as SVG at the requested width.
 * Every piece of text is escaped by hono's `html` template; records may hold hostile strings.
 */
import { html } from 'hono/html';
import { htmlText, type HtmlFragment } from '../html.ts';

/** Every generated campaign image is 16:9, so clients can reserve the box before it loads. */
export const CAMPAIGN_IMAGE_RATIO = { width: 16, height: 9 };
export const MAX_IMAGE_WIDTH = 4096;

const FALLBACK_COLORS: [string, string] = ['#37474f', '#b0bec5'];
const COLOR = /^#[0-9a-f]{3,8}$/i;

function safeColors(colors: [string, string] | undefined): [string, string] {
  return colors && COLOR.test(colors[0]) && COLOR.test(colors[1]) ? colors : FALLBACK_COLORS;
}

/** Splits text into at most `maxLines` lines of about `perLine` characters, with an ellipsis when cut. */
function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && (current + ' ' + word).length > perLine) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]!.slice(0, perLine - 1)}…`;
  }
  return lines.map((line) => (line.length > perLine ? `${line.slice(0, perLine - 1)}…` : line));
}

function svg(width: number, height: number, viewBox: string, label: string, body: (HtmlFragment | null)[]): string {
  return htmlText(
    html`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}" role="img" aria-label="${label}"><title>${label}</title>${body}</svg>`,
  );
}

export function campaignImageSvg(
  input: { title: string; subtitle: string | null; colors?: [string, string] },
  width: number,
): string {
  const height = Math.round((width * CAMPAIGN_IMAGE_RATIO.height) / CAMPAIGN_IMAGE_RATIO.width);
  const [from, to] = safeColors(input.colors);
  const titleLines = wrap(input.title, 26, 2);
  const titleText = titleLines.map((line, index) => html`<tspan x="96" dy="${index === 0 ? 0 : 100}">${line}</tspan>`);
  const subtitle = input.subtitle
    ? html`<text x="96" y="${430 + titleLines.length * 100}" font-family="system-ui, sans-serif" font-size="48" fill="#ffffff" fill-opacity="0.85">${wrap(input.subtitle, 48, 1)[0] ?? ''}</text>`
    : null;
  const body = [
    html`<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    // A shade behind the text keeps white type readable on light gradients.
    html`<linearGradient id="shade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000" stop-opacity="0.4"/><stop offset="0.7" stop-color="#000" stop-opacity="0"/></linearGradient></defs>`,
    html`<rect width="1600" height="900" fill="url(#g)"/><rect width="1600" height="900" fill="url(#shade)"/>`,
    html`<circle cx="1380" cy="180" r="260" fill="#ffffff" fill-opacity="0.12"/>`,
    html`<circle cx="1500" cy="760" r="180" fill="#000000" fill-opacity="0.08"/>`,
    html`<text x="96" y="400" font-family="system-ui, sans-serif" font-size="88" font-weight="700" fill="#ffffff">${titleText}</text>`,
    subtitle,
  ];
  return svg(width, height, '0 0 1600 900', input.title, body);
}

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => Array.from(word)[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

export function logoSvg(input: { name: string; colors?: [string, string] }, width: number): string {
  const [from, to] = safeColors(input.colors);
  const body = [
    html`<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    html`<rect width="512" height="512" rx="96" fill="url(#g)"/>`,
    html`<text x="256" y="256" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="200" font-weight="700" fill="#ffffff">${initials(input.name)}</text>`,
  ];
  return svg(width, width, '0 0 512 512', `${input.name} logo`, body);
}

/** Parses the `w` query parameter of an image request; undefined when it is not a width we serve. */
export function parseImageWidth(raw: string | undefined): number | undefined {
  if (raw === undefined) return 640;
  if (!/^\d{1,4}$/.test(raw)) return undefined;
  const width = Number(raw);
  return width >= 1 && width <= MAX_IMAGE_WIDTH ? width : undefined;
}

/** What an image is drawn from: a campaign (16:9, its title) or a business account's logo (square, initials). */
export type ImageSubject =
  | { kind: 'campaign'; title: string | null; subtitle: string | null; colors?: [string, string] }
  | { kind: 'logo'; name: string | null; colors?: [string, string] };

/** GET /images/<id>.svg?w=<width>: the generated image for the record `find` returns, or 400/404. */
export function serveImage(
  file: string,
  widthParam: string | undefined,
  find: (id: string) => ImageSubject | undefined,
): Response {
  const width = parseImageWidth(widthParam);
  const text = (body: string, status: number) =>
    new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=UTF-8' } });
  if (width === undefined) return text('w must be a whole number of pixels from 1 to 4096', 400);
  const id = /^(.+)\.svg$/.exec(file)?.[1];
  const subject = id === undefined ? undefined : find(id);
  if (!subject) return text('No such image', 404);
  const svg =
    subject.kind === 'campaign'
      ? campaignImageSvg({ title: subject.title ?? '', subtitle: subject.subtitle, colors: subject.colors }, width)
      : logoSvg({ name: subject.name ?? '', colors: subject.colors }, width);
  return new Response(svg, {
    status: 200,
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
      // An SVG opened directly must not run anything, even if a record held markup.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
