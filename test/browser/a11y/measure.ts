/**
 * Measurements for the accessibility suite, from computed styles and layout boxes (never from
 * pixels, which depend on the machine's fonts): WCAG contrast of the focus ring, text that is cut
 * off, the text-spacing override of WCAG 1.4.12 inside shadow roots, and axe-core with the WCAG 2.2
 * A and AA rules.
 */

export type Rgba = [r: number, g: number, b: number, a: number];

/** A computed colour (`rgb()`, `rgba()`, or `color(srgb …)` as Firefox and WebKit give `color-mix()`). */
export function parseColor(value: string): Rgba {
  const text = value.trim();
  if (text === 'transparent') return [0, 0, 0, 0];
  const numbers = (body: string) =>
    body
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map((token) => (token.endsWith('%') ? Number(token.slice(0, -1)) / 100 : Number(token)));
  let match = /^rgba?\(([^)]*)\)$/.exec(text);
  if (match) {
    const [r = 0, g = 0, b = 0, a = 1] = numbers(match[1]!);
    return [r, g, b, a];
  }
  match = /^color\(srgb ([^)]*)\)$/.exec(text);
  if (match) {
    const [r = 0, g = 0, b = 0, a = 1] = numbers(match[1]!);
    return [r * 255, g * 255, b * 255, a];
  }
  throw new Error(`unexpected computed colour: ${value}`);
}

/** `top` painted over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two opaque colours. */
export function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const css = (rgba: Rgba) => `rgb(${rgba.slice(0, 3).map(Math.round).join(', ')})`;

/** The element's parent across shadow boundaries (a shadow root's host, a slotted node's parent). */
function composedParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** The nearest of `el` and its ancestors across shadow boundaries that matches `selector`. */
export function composedClosest(el: Element, selector: string): Element | null {
  for (let node: Element | null = el; node; node = composedParent(node)) if (node.matches(selector)) return node;
  return null;
}

/** The opaque colour seen behind `el`'s content: its background over its ancestors', down to white. */
export function backgroundOf(el: Element | null): Rgba {
  const layers: Rgba[] = [];
  for (let node = el; node; node = composedParent(node)) {
    const layer = parseColor(getComputedStyle(node).backgroundColor);
    if (layer[3] > 0) layers.push(layer);
    if (layer[3] >= 1) break;
  }
  return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
}

interface Ring {
  /** Distance from the border edge, in px, where a band starts and ends. */
  from: number;
  to: number;
  color: Rgba;
}

/** Splits a computed `box-shadow` list at its top-level commas. */
function shadows(value: string): string[] {
  if (value === 'none') return [];
  const list: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '(') depth++;
    else if (value[i] === ')') depth--;
    else if (value[i] === ',' && depth === 0) {
      list.push(value.slice(start, i));
      start = i + 1;
    }
  }
  return [...list, value.slice(start)].map((s) => s.trim());
}

/**
 * The bands of colour the focused control draws around itself, outermost painted last: the outline
 * on top, then each outer box-shadow (zero offset, a spread) in list order. Each band is returned as
 * painted over what surrounds the control, so a translucent ring is measured as it is seen.
 */
export function ringBands(control: Element, surroundings: Rgba): Ring[] {
  const style = getComputedStyle(control);
  const layers: Ring[] = [];
  const outlineWidth = parseFloat(style.outlineWidth) || 0;
  if (style.outlineStyle !== 'none' && outlineWidth > 0) {
    const offset = parseFloat(style.outlineOffset) || 0;
    layers.push({ from: offset, to: offset + outlineWidth, color: parseColor(style.outlineColor) });
  }
  for (const shadow of shadows(style.boxShadow)) {
    if (/\binset\b/.test(shadow)) continue;
    const color = /(rgba?|color)\([^)]*\)/.exec(shadow)?.[0];
    const lengths = [...shadow.replace(/(rgba?|color)\([^)]*\)/, '').matchAll(/-?[\d.]+px/g)].map((m) =>
      parseFloat(m[0]),
    );
    const [x = 0, y = 0, blur = 0, spread = 0] = lengths;
    // A blurred or offset shadow is drawn unevenly: only its sharp, even part counts.
    if (!color || x !== 0 || y !== 0) continue;
    layers.push({ from: 0, to: spread - blur / 2, color: parseColor(color) });
  }
  const outer = Math.max(0, ...layers.map((layer) => layer.to));
  const bands: Ring[] = [];
  for (let d = 0; d < outer; d++) {
    const top = layers.find((layer) => layer.from <= d && d < layer.to && layer.color[3] > 0);
    const color = top ? over(top.color, surroundings) : surroundings;
    const last = bands.at(-1);
    if (last && css(last.color) === css(color)) last.to = d + 1;
    else bands.push({ from: d, to: d + 1, color });
  }
  return bands;
}

export interface FocusContrast {
  /** The ring's best contrast against the control's own colour. */
  control: number;
  /** The ring's best contrast against what surrounds the control. */
  surroundings: number;
  ring: string;
  controlColor: string;
  surroundingsColor: string;
}

/**
 * How the focused control's ring stands out. A ring is counted band by band (each at least 2px
 * thick, WCAG 2.4.13's minimum), and its best band against each neighbour: a two-tone ring whose
 * inner band matches the control still stands out from it by its outer band.
 */
export function focusContrast(control: Element): FocusContrast {
  const surroundings = backgroundOf(composedParent(control));
  const own = backgroundOf(control);
  const bands = ringBands(control, surroundings).filter((band) => band.to - band.from >= 2);
  const best = (against: Rgba) => Math.max(1, ...bands.map((band) => contrast(band.color, against)));
  return {
    control: best(own),
    surroundings: best(surroundings),
    ring: bands.map((band) => `${band.to - band.from}px ${css(band.color)}`).join(' + ') || 'none',
    controlColor: css(own),
    surroundingsColor: css(surroundings),
  };
}

/** Every shadow root inside `root`, nested ones included, and `root` itself. */
export function shadowRootsIn(root: Element | ShadowRoot): (Element | ShadowRoot)[] {
  const found: (Element | ShadowRoot)[] = [root];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...shadowRootsIn(el.shadowRoot));
  if (root instanceof Element && root.shadowRoot) found.push(...shadowRootsIn(root.shadowRoot));
  return found;
}

/** The WCAG 1.4.12 text-spacing override, the way a shopper's bookmarklet applies it, in every shadow root too. */
export const TEXT_SPACING = `* {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p, h1, h2, h3 { margin-block-end: 2em !important; }`;

export function applyTextSpacing(root: Element): () => void {
  const sheets = shadowRootsIn(root).map((scope) => {
    const style = document.createElement('style');
    style.textContent = TEXT_SPACING;
    (scope instanceof ShadowRoot ? scope : document.head).append(style);
    return style;
  });
  return () => sheets.forEach((style) => style.remove());
}

/** Whether `el` is visually hidden on purpose (screen-reader-only text, a hidden skeleton). */
function hiddenOnPurpose(el: Element): boolean {
  for (let node: Element | null = el; node; node = composedParent(node)) {
    if (node.classList.contains('visually-hidden') || node.getAttribute('aria-hidden') === 'true') return true;
  }
  return false;
}

/**
 * Text that is cut off with no way to read it: an element holding text whose box clips its content
 * (overflow hidden or clip, an ellipsis, a line clamp) while that content is larger than the box.
 * A scrolling box (`auto`, `scroll`) is not a cut: its content is reachable. One line per field.
 */
export function clippedText(root: Element): string[] {
  const cut: string[] = [];
  for (const scope of shadowRootsIn(root)) {
    for (const el of scope.querySelectorAll<HTMLElement>('*')) {
      if (!el.textContent?.trim() || hiddenOnPurpose(el)) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none') continue;
      const clips = (value: string) => value === 'hidden' || value === 'clip';
      const x = clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const y = clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
      if (x || y) {
        const name = el.getAttribute('part') ?? el.className ?? el.localName;
        const [needed, shown] = y ? [el.scrollHeight, el.clientHeight] : [el.scrollWidth, el.clientWidth];
        cut.push(
          `${(el.getRootNode() as ShadowRoot).host?.localName ?? 'page'} ${name}: ${needed}px needed in ${shown}px`,
        );
      }
    }
  }
  return cut;
}

/** The WCAG 2.0, 2.1 and 2.2 A and AA rules. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

interface AxeResult {
  violations: { id: string; help: string; nodes: { target: unknown[] }[] }[];
}

/** axe-core's WCAG 2.2 A/AA violations in `context` (shadow roots included), one line each. */
export async function axeViolations(context: Element): Promise<string[]> {
  const global = window as unknown as { axe?: { run(context: Element, options: object): Promise<AxeResult> } };
  if (!global.axe) await import('axe-core/axe.min.js' as string);
  const result = await global.axe!.run(context, { runOnly: { type: 'tag', values: WCAG_TAGS } });
  return result.violations.map(
    (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
}
