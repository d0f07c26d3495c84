/**
 * `<loyalty-launcher>` in its default corner never covers the page's own controls on the demo pages
 * (served as deployed: the built script tag, the real proxy and sandbox), in Chromium, Firefox and WebKit,
 * at a phone's width (390 CSS px) and a desktop's (1280): every link, button, field and other tab stop of
 * the page, the other elements' own included, is clear of the launcher's button with the page at its
 * top, at its bottom, with the control brought into view from above as far down as a browser may leave
 * it, and as the shopper's Tab reaches it, each browser scrolling as it does. Content made inert (a
 * carousel's slides out of view) is no control. Each page is shown in a frame of that width, which
 * WebKit's window cannot be made as narrow as. An engine that is not installed is skipped, except in
 * CI, where it fails.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { ENGINES, missingPrograms } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import { launchShopperBrowser, waitFor, type ShopperBrowser } from '../support/shopper-browser.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const WIDTHS = [390, 1280];
const HEIGHT = 800;
const PAGES: string[] = [];
for (const file of (await readdir('demo')).filter((name) => name.endsWith('.html')).sort())
  if ((await readFile(`demo/${file}`, 'utf8')).includes('<loyalty-launcher')) PAGES.push(`/demo/${file}`);

/** The page under test in a frame of the width asked for, which is then its window. */
const FRAME = '/launcher-frame.html';
const frameHtml = `<!doctype html><html><body style="margin:0"><iframe title="page" style="display:block;border:0;height:${HEIGHT}px"></iframe></body></html>`;

/** The framed page's window, from the top page's expressions. */
const framed = `document.querySelector('iframe').contentWindow`;

/** The framed page has loaded, each Marketing element shows its content, its empty state or a failure, and the launcher its label. */
const settled = `(() => {
  const d = ${framed}.document;
  const shows = (tag, parts) => [...d.querySelectorAll(tag)].every((element) => element.shadowRoot?.querySelector(parts));
  return d.readyState === 'complete' && Boolean(d.querySelector('loyalty-launcher')) && !d.querySelector(':not(:defined)') &&
    shows('campaign-carousel, business-directory', '[part~="slide"], [part~="card"], [part~="empty"], [part~="error"]') &&
    shows('coupon-claim', '[part~="claim-button"], [part~="signin-button"], [part~="error"]') &&
    shows('loyalty-launcher', '[part~="label"]:not(:empty)');
})()`;

/**
 * What the checks read of the framed page, kept on the top window as `placement`: the page's controls,
 * a control's name for the messages, and whether the launcher's button overlaps what the shopper sees of it.
 */
const measure = `(() => {
  const w = ${framed};
  const d = w.document;
  const launcher = d.querySelector('loyalty-launcher');
  const button = launcher.shadowRoot.querySelector('[part~="button"]');
  const FOCUSABLE = 'a[href], area[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [contenteditable]:not([contenteditable="false"])';
  const CONTROL = FOCUSABLE + ', [tabindex]:not([tabindex="-1"]), [role="button"], [role="link"]';
  const up = (node) => node.assignedSlot || node.parentNode || node.host || null;
  const inert = (element) => {
    for (let node = element; node; node = up(node)) if (node.inert) return true;
    return false;
  };
  const controls = () => {
    const found = [];
    const walk = (root) => {
      for (const element of root.querySelectorAll('*')) {
        if (element === launcher) continue;
        if (element.shadowRoot) walk(element.shadowRoot);
        if (element.matches(CONTROL) && !inert(element) && element.getClientRects().length && w.getComputedStyle(element).visibility === 'visible')
          found.push(element);
      }
    };
    walk(d);
    return found;
  };
  const name = (element) => {
    const hosts = [];
    for (let node = up(element); node; node = up(node)) if (node.host) hosts.unshift(node.host.localName);
    const text = (element.getAttribute('aria-label') || element.textContent || element.getAttribute('href') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return [...hosts, element.localName].join(' > ') + (text ? ' "' + text + '"' : '');
  };
  /** What of the element the shopper can see: its box, cut by the window and every ancestor that clips. */
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom];
    for (let node = up(element); node && node.nodeType === 1; node = up(node)) {
      const style = w.getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = node.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, clip.left), Math.max(top, clip.top), Math.min(right, clip.right), Math.min(bottom, clip.bottom)];
    }
    const view = d.documentElement;
    return [Math.max(left, 0), Math.max(top, 0), Math.min(right, view.clientWidth), Math.min(bottom, view.clientHeight)];
  };
  const overlaps = (element) => {
    const [left, top, right, bottom] = shown(element);
    const launcherBox = button.getBoundingClientRect();
    return right - left > 0.5 && bottom - top > 0.5 &&
      left < launcherBox.right - 0.5 && right > launcherBox.left + 0.5 && top < launcherBox.bottom - 0.5 && bottom > launcherBox.top + 0.5;
  };
  window.placement = { w, d, launcher, controls, name, overlaps };
  return true;
})()`;

/**
 * The controls the launcher's button overlaps, as `where: control` lines: with the page at its top, at
 * its bottom, and for each control, with that control brought into view from above as far down as a
 * browser may leave it (block end, short of the page's scroll padding).
 */
const covered = `(() => {
  const { w, d, controls, name, overlaps } = window.placement;
  const all = controls();
  const found = [];
  const view = (where, scroll, which) => {
    scroll();
    for (const element of which) if (overlaps(element)) found.push(where + ': ' + name(element));
  };
  view('at the top', () => w.scrollTo({ top: 0, behavior: 'instant' }), all);
  view('at the bottom', () => w.scrollTo({ top: d.documentElement.scrollHeight, behavior: 'instant' }), all);
  for (const element of all)
    view('brought into view', () => {
      w.scrollTo({ top: 0, behavior: 'instant' });
      element.scrollIntoView({ block: 'end', inline: 'nearest', behavior: 'instant' });
    }, [element]);
  w.scrollTo({ top: 0, behavior: 'instant' });
  return [all.length, [...new Set(found)]];
})()`;

/** The framed page at its top, with focus in it but on no control yet: the next Tab goes to its first. */
const focusTop = `(() => {
  const { w, d } = window.placement;
  w.scrollTo({ top: 0, behavior: 'instant' });
  w.focus();
  d.activeElement?.blur();
  return true;
})()`;

/**
 * The control Tab moved focus to (inside the elements' shadow roots too) and whether the launcher
 * covers it; null once focus is on the launcher (the page's last tab stop) or out of the page.
 */
const focused = `(() => {
  const { d, launcher, name, overlaps } = window.placement;
  let element = d.activeElement;
  if (!element || element === d.body || element === launcher) return null;
  while (element.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  return [name(element), overlaps(element)];
})()`;

/**
 * The same answer twice in a row: a carousel marks the slides out of its view inert once it has
 * measured its track, a frame after its content is in.
 */
async function steady<T>(read: () => Promise<T>): Promise<T> {
  let last = JSON.stringify(await read());
  for (let tries = 0; tries < 20; tries++) {
    const next = await read();
    if (JSON.stringify(next) === last) return next;
    last = JSON.stringify(next);
  }
  throw new Error(`the page kept changing: ${last}`);
}

describe('the launcher never covers the page’s controls', () => {
  const stack = useE2eStack({
    staticSites: { site: { demoPages: true, pages: new Map([[FRAME, frameHtml]]) } },
    chromium: false,
  });

  for (const engine of ENGINES) {
    const missing = missingPrograms(engine);
    describe(
      engine,
      { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
      () => {
        let browser: ShopperBrowser;
        before(async () => {
          assert.deepEqual(missing, [], `${engine} must be installed in CI`);
          browser = await launchShopperBrowser(engine);
        });
        after(() => browser?.close());

        for (const width of WIDTHS)
          it(`at ${width}px, on ${PAGES.join(', ')}`, async () => {
            const { page } = browser;
            const found: string[] = [];
            for (const path of PAGES) {
              await page.goto(`${stack.sites.site.origin}${FRAME}`);
              await page.evaluate(
                `(() => { const frame = document.querySelector('iframe'); frame.style.width = '${width}px'; frame.src = ${JSON.stringify(path)}; return true; })()`,
              );
              await waitFor(page, settled, `${path} settled at ${width}px`, 20_000);
              await page.evaluate(measure);
              const [count, covering] = await steady(() => page.evaluate<[number, string[]]>(covered));
              assert.ok(count > 5, `${path}: the controls are found (${count})`);
              found.push(...covering.map((line) => `${path} ${line}`));
              // The keyboard: each Tab scrolls the control it reaches into view as the browser itself does.
              await page.evaluate(focusTop);
              const reached = new Set<string>();
              for (let step = 0; step < 200; step++) {
                await page.press('Tab');
                const control = await page.evaluate<[string, boolean] | null>(focused);
                if (!control || reached.has(control[0])) break;
                reached.add(control[0]);
                if (control[1]) found.push(`${path} tabbed to: ${control[0]}`);
              }
              assert.ok(reached.size > 5, `${path}: Tab reaches the page's controls (${[...reached].join(', ')})`);
            }
            assert.deepEqual(found, []);
          });
      },
    );
  }
});
