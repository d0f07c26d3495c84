/**
 * The article page with one carousel (test/e2e/fixtures/article.html) in the shapes a merchant may
 * serve it, as the page bench, Lighthouse and the layout-shift tests load them: today's page (the
 * README's script tag), the same with the README's preload line for its first page, the same printed
 * by the server with its first page inside (renderFirstPage), and its floor: the same campaigns as
 * static HTML and no script.
 */
import type { Browser } from 'playwright-core';

/** The carousel of article.html, as the pages below change it. */
export const ARTICLE_CAROUSEL = /<campaign-carousel heading-level="3" limit="4"><\/campaign-carousel>/;

/** The article with the README's preload line, and the article printed with the carousel's first page. */
export function articleShapes(article: string): { preload: string; printed: string } {
  if (!ARTICLE_CAROUSEL.test(article)) throw new Error('article.html no longer has the carousel the pages change');
  return {
    preload: article.replace(
      '<script type="module"',
      '<link rel="preload" as="fetch" crossorigin href="/api/marketing?operation=campaigns&amp;limit=4" />\n    <script type="module" async src="/dist/first-page.js"></script>\n    <script type="module"',
    ),
    // Marked for the static site, which prints it through its proxy at each request.
    printed: article.replace(ARTICLE_CAROUSEL, '<!-- first-page campaign-carousel {"heading-level":3,"limit":4} -->'),
  };
}

/** Marks the static carousel's parts for the measurements (bench/floor.ts): its titles and images. */
export const STATIC_CAROUSEL = { title: '.slides .title', image: '.slides img' } as const;

/**
 * A carousel's slides as static HTML, read from the page at `url` once it shows them: each slide's
 * image with the very `<img>` attributes the carousel rendered and its title, in a list laid out as
 * the carousel lays them out, with its own style.
 */
export async function staticCarousel(browser: Browser, url: string): Promise<string> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  try {
    await page.goto(url);
    await page.locator('campaign-carousel [part~="image"]').first().waitFor({ state: 'attached', timeout: 20_000 });
    const slides = await page.evaluate(() =>
      [...document.querySelector('campaign-carousel')!.shadowRoot!.querySelectorAll('[part~="slide"]')].map(
        (slide) =>
          `<li class="slide">${slide.querySelector('[part~="image"]')?.outerHTML ?? ''}<h3 class="title">${slide.querySelector('[part~="title"]')?.textContent?.trim() ?? ''}</h3></li>`,
      ),
    );
    const style =
      '<style>.slides{display:flex;gap:1rem;overflow-x:auto;padding:0;list-style:none}.slide{flex:0 0 min(85%,20rem)}.slide img{display:block;inline-size:100%;block-size:auto;aspect-ratio:16/9}</style>';
    return `${style}<ul class="slides">${slides.join('')}</ul>`;
  } finally {
    await page.close();
  }
}

/** The article's floor: its carousel as `staticCarousel`'s HTML, and no stylesheet or script of the widgets. */
export function floorArticle(article: string, carousel: string): string {
  return article
    .replace(/\s*<link rel="stylesheet" href="\/dist\/[^>]*>/, '')
    .replace(/\s*<script type="module"[^>]*><\/script>/, '')
    .replace(ARTICLE_CAROUSEL, carousel);
}
