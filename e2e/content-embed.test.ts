// Click to load in a real browser (issue 15, docs/decisions/042): before the click the page asks the
// providers for nothing; the click loads only that provider's frame, on its privacy-friendly address.
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { build } from 'vite';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser';

const ORIGIN = 'https://shop.test';
const PROVIDERS = /youtube|ytimg|googlevideo|twitter|twimg|x\.com/;

let browser: Browser;
let script = '';

beforeAll(async () => {
  const root = path.resolve(import.meta.dirname, '..');
  // Vitest runs with NODE_ENV=test, which makes Vite compile JSX for React's development runtime while
  // the define below picks the production React: build as production, then put the variable back.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let output: Awaited<ReturnType<typeof build>>;
  try {
    output = await build({
      configFile: false,
      logLevel: 'silent',
      root,
      resolve: { alias: { '~': path.join(root, 'app') } },
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        write: false,
        minify: false,
        modulePreload: false,
        rollupOptions: { input: path.join(root, 'e2e/support/embed-page.tsx') },
      },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const chunks = (Array.isArray(output) ? output : [output]) as { output: { type: string; code?: string }[] }[];
  script = chunks.flatMap((o) => o.output).find((file) => file.type === 'chunk')?.code ?? '';
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('content embeds', () => {
  it('contacts YouTube or X only after the member clicks, and then only that provider', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'ja-JP' });
    const page = await context.newPage();
    const asked: string[] = [];
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    // Nothing leaves the machine: the shop's page and script are served here, the providers answer a stub.
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === `${ORIGIN}/`)
        return route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="ja"><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>',
        });
      if (url === `${ORIGIN}/app.js`) return route.fulfill({ contentType: 'text/javascript', body: script });
      asked.push(url);
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title>' });
    });
    try {
      await page.goto(`${ORIGIN}/`);
      const youtube = page.getByRole('button', { name: 'YouTubeの動画を表示する' });
      const x = page.getByRole('button', { name: 'Xの投稿を表示する' });
      await youtube.waitFor();
      await x.waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
      expect(asked.filter((url) => PROVIDERS.test(url))).toEqual([]);

      await youtube.click();
      const frame = page.locator('iframe');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
      expect(await frame.getAttribute('title')).toBe('YouTubeの動画：開封動画');
      await expect
        .poll(() => asked.some((url) => url.startsWith('https://www.youtube-nocookie.com/embed/')))
        .toBe(true);
      // The member's focus follows to what they asked for; X is still untouched.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
      expect(asked.filter((url) => /twitter|x\.com/.test(url))).toEqual([]);
      await x.waitFor();

      await x.click();
      await expect.poll(() => page.locator('iframe').count()).toBe(2);
      await expect
        .poll(() => asked.some((url) => url === 'https://platform.twitter.com/embed/Tweet.html?id=20&dnt=true'))
        .toBe(true);
      // On a 360 px phone the players fit the width.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(360);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
