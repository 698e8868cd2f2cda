// The same pages from Prismic (decisions 039 and 041): a second shop started with CONTENT_SOURCE=prismic
// against the local stand-in of Prismic's document API serves a Prismic page at /{uid}, a special page,
// a notice, the footer's 古物営業法 line and the sitemap; when Prismic goes down, the pages keep coming
// from the last good copy and /api/health says the source is stale; a Prismic preview ref opens a draft
// on /preview (noindex) and only there, by its link and then by the cookie the link sets, and an unknown
// ref is not found; a repository without footer_note still shows the settings' 古物営業法 line.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startOwnShop, type OwnShop } from '#tests/own-shop';
import { startPrismicStandin, prismicDocument, type PrismicStandin } from '#devtools/standins/prismic';

const richText = (text: string) => [{ type: 'paragraph', text, spans: [] }];

let standin: PrismicStandin;
let own: OwnShop;
let base = '';
const company = prismicDocument('page', 'company', {
  title: 'Prismicの会社概要',
  description: 'Prismicから配信',
  body: richText('この本文はPrismicから届きました。'),
  slices: [],
});
const kobutsu = prismicDocument('page', 'kobutsu', {
  title: '古物営業法に基づく表示',
  footer_note: '古物商許可 神奈川県公安委員会 第452345678901号',
  body: richText('許可番号の表示です。'),
});
const published = [
  company,
  kobutsu,
  prismicDocument('special', 'spring-sale', { title: '春のオリパ祭り', body: richText('開催中です。') }),
  prismicDocument('notice', 'maintenance-1201', {
    title: '12月1日メンテナンスのお知らせ',
    body: richText('2時から4時まで停止します。'),
    important: true,
  }),
];

const get = (path: string, cookie?: string) =>
  fetch(`${base}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
const health = async () => (await (await get('/api/health')).json()) as { content: { source: string; stale: boolean } };

/** Polls until `check` holds (the source refreshes in the background); no fixed short timeout. */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 240; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`never happened: ${what}`);
}

beforeAll(async () => {
  standin = await startPrismicStandin({ documents: published });
  own = await startOwnShop('prismic_shop', {
    DEMO_DATA: 'false',
    CONTENT_SOURCE: 'prismic',
    PRISMIC_REPOSITORY: standin.endpoint,
  });
  base = own.base;
});
afterAll(async () => {
  await own?.stop();
  await standin?.close();
});

describe('a shop whose content comes from Prismic', () => {
  it('serves Prismic pages, special pages, notices, the footer line and the sitemap', async () => {
    const page = await get('/company');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Prismicの会社概要');
    expect(html).toContain('この本文はPrismicから届きました。');
    expect(html).toContain('古物商許可 神奈川県公安委員会 第452345678901号');
    expect(html).toMatch(/<title>Prismicの会社概要 \| [^<]+<\/title>/);
    expect(html).toContain(`<link rel="canonical" href="${base}/company"/>`);

    expect(await (await get('/spring-sale')).text()).toContain('春のオリパ祭り');
    expect((await get('/not-in-prismic')).status).toBe(404);
    // The built-in store's default legal pages are not what a Prismic shop serves.
    expect((await get('/shikin')).status).toBe(404);

    const notice = await (await get('/notices/maintenance-1201')).text();
    expect(notice).toContain('2時から4時まで停止します。');
    expect(await (await get('/')).text()).toContain('12月1日メンテナンスのお知らせ');

    const sitemap = await (await get('/sitemap.xml')).text();
    expect(sitemap).toContain(`<loc>${base}/company</loc>`);
    expect(sitemap).toContain(`<loc>${base}/spring-sale</loc>`);
    expect(sitemap).toContain(`<loc>${base}/notices/maintenance-1201</loc>`);
    expect((await health()).content).toMatchObject({ source: 'prismic', stale: false });
  });

  it('keeps serving the last good copy while Prismic is down, and says so in /api/health', async () => {
    await standin.stop();
    try {
      // Reads past the 5 s freshness start background refreshes, which now fail.
      await eventually(async () => {
        expect((await get('/company')).status).toBe(200);
        return (await health()).content.stale;
      }, 'health reports the content source stale');
      const page = await get('/company');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('この本文はPrismicから届きました。');
      expect((await get('/api/health')).status).toBe(200);
    } finally {
      await standin.start();
    }
    await eventually(async () => {
      await get('/company');
      return !(await health()).content.stale;
    }, 'health recovers once Prismic answers');
  });

  it('opens a Prismic preview ref on /preview only (noindex), by its link and then by the cookie it sets', async () => {
    const draftOnly = prismicDocument('page', 'draft-only', {
      title: '未公開ページ',
      body: richText('まだ誰も見ていない。'),
    });
    const ref = standin.addPreview([
      { ...company, data: { ...company.data, body: richText('プレビューだけの新しい本文。') } },
      draftOnly,
    ]);
    const link = `/preview?token=${encodeURIComponent(ref)}&documentId=${company.id}`;
    const opened = await get(link);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(await opened.text()).toContain('プレビューだけの新しい本文。');
    // Prismic's preview cookie, for the session's next pages.
    const setCookie = opened.headers.getSetCookie().find((line) => line.startsWith('io.prismic.preview='));
    expect(setCookie).toBeDefined();
    expect(setCookie).toContain('HttpOnly');
    expect(decodeURIComponent(setCookie!.split(';')[0]!.slice('io.prismic.preview='.length))).toBe(ref);
    const cookie = setCookie!.split(';')[0]!;

    // The cookie alone opens the session's documents, the one never published too.
    const again = await get(`/preview?documentId=${company.id}`, cookie);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('プレビューだけの新しい本文。');
    const unpublished = await get(`/preview?documentId=${draftOnly.id}`, cookie);
    expect(unpublished.status).toBe(200);
    expect(unpublished.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(await unpublished.text()).toContain('まだ誰も見ていない。');

    // Only there: the site serves the published version, and the unpublished page is not found.
    const site = await (await get('/company', cookie)).text();
    expect(site).toContain('この本文はPrismicから届きました。');
    expect(site).not.toContain('プレビューだけの新しい本文。');
    expect((await get('/draft-only', cookie)).status).toBe(404);

    // A ref Prismic does not know is not found (never the published version under a preview label),
    // and so is /preview without any ref.
    const unknown = `${new URL(standin.endpoint).origin}/previews/never-made`;
    const refused = await get(`/preview?token=${encodeURIComponent(unknown)}&documentId=${company.id}`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(await refused.text()).not.toContain('この本文はPrismicから届きました。');
    expect((await get(`/preview?documentId=${company.id}`)).status).toBe(404);
    expect((await get(`/preview?token=not-a-ref&documentId=${company.id}`)).status).toBe(404);
  });

  it('keeps the footer line when the repository has no footer_note: the settings give it', async () => {
    const kobutsuLine = (html: string) =>
      /data-testid="kobutsu-line"[^>]*><a [^>]*href="\/kobutsu"[^>]*>([^<]+)<\/a>/.exec(html)?.[1];
    const { footer_note: _, ...withoutNote } = kobutsu.data;
    standin.publish([...published.filter((d) => d !== kobutsu), { ...kobutsu, data: withoutNote }]);
    try {
      // The copy refreshes in the background (5 s freshness), the footer line after the page cache's time.
      await eventually(async () => {
        const line = kobutsuLine(await (await get('/')).text());
        return line !== undefined && !line.includes('神奈川県');
      }, 'the footer line comes from the settings');
      const line = kobutsuLine(await (await get('/company')).text());
      expect(line).toMatch(/^古物商許可 \S+公安委員会 第\d+号$/);
    } finally {
      standin.publish(published);
    }
    await eventually(
      async () => kobutsuLine(await (await get('/')).text()) === kobutsu.data.footer_note,
      "the repository's line again",
    );
  });
});
