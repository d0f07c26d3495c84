/**
 * The article page (test/e2e/fixtures/article.html) as a WordPress post with a campaigns block: Debian's
 * WordPress with the plugin unpacked from the built zip, its own proxy route in front of the sandbox as
 * Marketing. The block renders whatever the plugin prints for it. Its floor is the same post with the
 * carousel's campaigns as static HTML in a Custom HTML block (no widget, so no script or stylesheet
 * of the plugin).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { ARTICLE_CAROUSEL } from '../../support/article-pages.ts';
import { installPluginFromZip } from './install.ts';
import { ZIP } from './shop.ts';
import { phpArray, phpString, startWordPress, type RunningWordPress } from './wordpress.ts';

export interface WordPressArticle {
  wp: RunningWordPress;
  sandbox: RunningSandbox;
  /** The post with the campaigns block. */
  url: string;
  /** Publishes the same post with this HTML in place of the block; returns its address. */
  publishFloor(carousel: string): string;
  close(): Promise<void>;
}

/** The article's title and its content around the carousel, as the post's blocks. */
async function articleContent(): Promise<{ title: string; content: (carousel: string) => string }> {
  const article = await readFile('test/e2e/fixtures/article.html', 'utf8');
  const title = /<h1>([^<]*)<\/h1>/.exec(article)?.[1];
  const main = /<main>([\s\S]*)<\/main>/.exec(article)?.[1];
  if (!title || !main || !ARTICLE_CAROUSEL.test(main))
    throw new Error('article.html no longer has its title and carousel');
  const body = main.replace(/\s*<h1>[^<]*<\/h1>/, '').trim();
  return { title, content: (carousel) => body.replace(ARTICLE_CAROUSEL, carousel) };
}

/**
 * Starts the site and publishes the article. `head` is printed first in every page's <head> (before
 * WordPress's own styles and scripts), as a plugin's wp_head hook prints it.
 */
export async function startWordPressArticle(head = ''): Promise<WordPressArticle> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-wp-article-'));
  const [wp, sandbox] = await Promise.all([
    startWordPress(),
    startSandbox({ connectPort: 0, marketingPort: 0, dataDir }),
  ]);
  const close = async () => {
    await Promise.all([wp.close(), sandbox.close()]);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await installPluginFromZip(wp, ZIP);
    if (head) {
      writeFileSync(
        join(wp.folder, 'site/wp-content/mu-plugins/head-first.php'),
        `<?php\nadd_action( 'wp_head', static function () { echo ${phpString(head)}; }, -1000 );\n`,
      );
    }
    wp.php(
      `update_option( 'loyalty_widgets_settings', loyalty_widgets_sanitize_settings( ${phpArray({
        marketing_url: sandbox.marketingUrl,
      })} ) );
      update_option( 'loyalty_widgets_marketing_key', ${phpString(sandbox.apiKey)} );`,
    );
    const { title, content } = await articleContent();
    const publish = (body: string): string => {
      const id = Number(
        wp.php(
          `echo wp_insert_post( array( 'post_type' => 'post', 'post_status' => 'publish', 'post_title' => ${phpString(title)}, 'post_content' => ${phpString(body)} ) );`,
        ),
      );
      if (!(id > 0)) throw new Error('WordPress did not publish the article');
      return `${wp.url}/?p=${id}`;
    };
    return {
      wp,
      sandbox,
      url: publish(content('<!-- wp:loyalty-widgets/campaign-carousel {"limit":4} /-->')),
      publishFloor: (carousel) => publish(content(`<!-- wp:html -->\n${carousel}\n<!-- /wp:html -->`)),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
