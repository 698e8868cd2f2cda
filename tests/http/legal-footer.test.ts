// The 古物営業法 line (issue 15: the permit number and the issuing 公安委員会, one link from the top page)
// on every kind of page: the top page, a pack page, the sign-in page and a member's draw result; and
// still there when an editor takes the kobutsu page off the site (the settings' line stands in). The
// kobutsu page is published again afterwards: the shop is shared by every file (decision 004).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { createBuiltinSource, getDocumentForEditor, publish, unpublish } from '#modules/content';
import { grantPaidCoinsByEmail } from '#tests/fixtures';
import { FOOTER_NOTE_TTL_MS } from '#server/page-content';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
const PACK = { genre: 'pokemon', id: 'stellar-pokemon-003' }; // 100 coins a draw, thousands of lots
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

/** The footer's 古物営業法 line: its text and where it leads; null when the page has none. */
function kobutsuLineOf(html: string): { text: string; href: string } | null {
  const match = /data-testid="kobutsu-line"[^>]*><a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/.exec(html);
  return match ? { href: match[1]!, text: match[2]! } : null;
}
const LINE = /^古物商許可 \S+公安委員会 第\d+号$/;

/** A member drawn once from the pack without JavaScript (the confirmation by URL, then the form). */
async function memberWithResult(): Promise<{ cookie: string; resultPath: string }> {
  const email = uniqueEmail('footer-draw');
  const cookie = cookieFrom(
    (await signUpByForm({ name: 'フッター確認', email, password: 'footer-draw-1', agreeToTerms: 'on' })).headers,
  );
  await grantPaidCoinsByEmail(handle!.db, email, 100);
  const confirm = await get(`/gacha/${PACK.genre}/${PACK.id}?confirm=1`, { cookie });
  const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.body)?.[1];
  expect(key, 'the confirmation carries its idempotency key').toBeTruthy();
  const drawn = await postForm(`/gacha/${PACK.genre}/${PACK.id}`, { count: '1', idempotencyKey: key! }, { cookie });
  expect(drawn.status).toBe(302);
  return { cookie, resultPath: drawn.location!.split('?')[0]! };
}

describe.skipIf(!databaseUrl)(
  `the 古物営業法 line on every page${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop)'}`,
  () => {
    it('is on the top page, a pack page, the sign-in page and a draw result, leading to /kobutsu', async () => {
      const { cookie, resultPath } = await memberWithResult();
      expect(resultPath).toMatch(new RegExp(`^/gacha/${PACK.genre}/${PACK.id}/result/[0-9a-f-]{36}$`));
      const pages: [string, string | undefined][] = [
        ['/', undefined],
        [`/gacha/${PACK.genre}/${PACK.id}`, undefined],
        ['/auth/sign_in', undefined],
        [resultPath, cookie],
      ];
      for (const [path, as] of pages) {
        const page = await get(path, { cookie: as });
        expect(page.status, path).toBe(200);
        const line = kobutsuLineOf(page.body);
        expect(line?.text, path).toMatch(LINE);
        expect(line?.href, path).toBe('/kobutsu');
      }
      // The result page's line is at its foot, after the page's own content.
      const result = (await get(resultPath, { cookie })).body;
      expect(result.indexOf('data-testid="kobutsu-line"')).toBeGreaterThan(result.indexOf('獲得商品をすべて見る'));
    });

    it('stays when an editor unpublishes the kobutsu page: the settings give the line', async () => {
      const db = handle!.db;
      const kobutsu = await createBuiltinSource(db).getPage('kobutsu', ['page']);
      expect(kobutsu?.data.footerNote).toMatch(LINE);
      const published = (await getDocumentForEditor(db, kobutsu!.id))!.publishedVersion!;
      await db.transaction((tx) => unpublish(tx, kobutsu!.id));
      try {
        expect((await get('/kobutsu')).status).toBe(404);
        // Past the instance's footer cache, so the line below is the settings' fallback, not a kept copy.
        await new Promise((resolve) => setTimeout(resolve, FOOTER_NOTE_TTL_MS + 1_000));
        for (const path of ['/', '/auth/sign_in']) {
          const line = kobutsuLineOf((await get(path)).body);
          expect(line?.text, path).toBe(kobutsu!.data.footerNote);
        }
      } finally {
        await db.transaction((tx) => publish(tx, kobutsu!.id, published));
      }
      expect((await get('/kobutsu')).status).toBe(200);
    });
  },
);
