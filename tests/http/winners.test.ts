// The winners feed and the draw history over HTTP against the built shop (decision 036): a new top-tier
// win reaches the home's and the pack's server-sent-event streams (匿名 unless the member chose the
// nickname on the profile page), the public feed API and pages; a hidden genre's pack drops out; the
// member's history API and page show their own draws with proofs, never another member's (IDOR); bad
// input is a Japanese 4xx. Members get coins on the shop's database, so this file needs PostgreSQL.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { genres, users } from '#db/schema';
import { checkInvariants, grantCoins } from '#modules/wallet';
import { createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';
import { recordWinsJob } from '#server/jobs/shop-rules';
import { createLogger } from '#server/logger';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
/** The test's own genre: shown while it runs, hidden after, so the shop's lists are as before. */
const GENRE = `win-${Date.now().toString(36)}`;
let pack = '';

interface Member {
  id: string;
  email: string;
  cookie: string;
  bearer: string;
}

async function member(label: string, name: string, coins = 0): Promise<Member> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name, email, password: 'winners-pass-1', agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row)
    throw new Error(
      `sign-up failed: ${page.status} ${page.body
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 800)}`,
    );
  if (coins)
    await grantCoins(handle!.db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: row.id,
      kind: 'paid',
      amount: coins,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `test:winners:${row.id}`,
    });
  return { id: row.id, email, cookie, bearer: /session_token=([^;]+)/.exec(cookie)![1]! };
}

async function api(path: string, options: { member?: Member; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.member) headers.authorization = `Bearer ${options.member.bearer}`;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = randomUUID();
  }
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: options.body !== undefined ? 'POST' : 'GET',
    headers,
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** An open server-sent-event stream, read as text; `until` waits for a pattern (generous: a shared machine). */
async function openEvents(path: string) {
  const controller = new AbortController();
  const response = await fetch(`${shopUrl()}${path}`, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const until = async (pattern: RegExp, ms = 60_000) => {
    const deadline = Date.now() + ms;
    while (!pattern.test(text)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${text.slice(0, 500)}`);
      const chunk = await Promise.race([
        reader.read(),
        new Promise<{ done: true; value: undefined }>((resolve) =>
          setTimeout(() => resolve({ done: true, value: undefined }), Math.max(deadline - Date.now(), 1)),
        ),
      ]);
      if (chunk.value) text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  };
  return { until, close: () => controller.abort(), text: () => text };
}

const winsOf = (text: string) =>
  [...text.matchAll(/event: win\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!) as Record<string, string>);

/** Polls until `check` holds (the feed is written about a second after the draw commits). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await handle.db.insert(genres).values({ id: GENRE, name: '当選テスト', sortOrder: 999 });
  // 4 lots: S賞 (rainbow), A賞 ×2, B賞, and a ラストワン賞 for whoever takes the last lot.
  pack = await createPublishedPack(handle.db, {
    genreId: GENRE,
    lots: 4,
    price: 100,
    lastOne: true,
    drawOptions: [1, 4],
  });
});
afterAll(async () => {
  if (handle) {
    await handle.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
    expect(await checkInvariants(handle.db)).toEqual([]);
  }
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `winners feed and draw history${databaseUrl ? '' : ' (skipped: needs PostgreSQL for coins beside the shop)'}`,
  () => {
    let alice: Member;
    let bob: Member;
    let aliceDraw = '';

    it('streams a new top-tier win to the home and pack streams, as 匿名 by default', async () => {
      [alice, bob] = await Promise.all([
        member('winner-a', '当選アリス', 10_000),
        member('winner-b', '当選ボブ', 10_000),
      ]);
      const home = await openEvents('/api/v1/winners/events');
      const packStream = await openEvents(`/api/v1/gachas/${pack}/events`);
      try {
        await home.until(/event: ready/);
        await packStream.until(/event: remaining/);
        const drawn = await api(`/gachas/${pack}/draws`, { member: alice, body: { count: 4 } });
        expect(drawn.status).toBe(201);
        aliceDraw = drawn.body.id;
        // The winners feed's catch-up job (every 5 minutes, on any instance) may run between the draw's commit
        // and the live recount a second later; the wins are still the live path's to record and announce.
        await recordWinsJob(10_000).handler({ db: handle!.db, logger: createLogger('silent'), now: new Date() });
        await home.until(/event: win/);
        await packStream.until(/event: win/);
        for (const text of [home.text(), packStream.text()]) {
          const wins = winsOf(text).filter((w) => w.gachaId === pack);
          expect(wins.length).toBeGreaterThanOrEqual(1);
          for (const win of wins) {
            expect(win).toMatchObject({ name: '匿名', genreId: GENRE });
            expect(['S賞', 'ラストワン賞']).toContain(win.tierLabel);
          }
          expect(text).not.toContain(alice.id);
          expect(text).not.toContain(alice.email);
        }
      } finally {
        home.close();
        packStream.close();
      }
    });

    it('lists the wins in the public API and on the home and pack pages, with the nickname once chosen', async () => {
      const feed = await eventually(
        () => api(`/winners?gachaId=${pack}`),
        (r) => r.body?.items?.length === 2,
      );
      expect(feed.status).toBe(200);
      expect(feed.body.items.map((e: { tierLabel: string }) => e.tierLabel).sort()).toEqual(['S賞', 'ラストワン賞']);
      expect(JSON.stringify(feed.body)).not.toContain(alice.id);

      const settings = await postForm(
        '/mypage/settings/profile',
        { name: '当選アリス', winnersFeed: 'named' },
        { cookie: alice.cookie },
      );
      expect(settings.status).toBe(200);
      expect((await get('/mypage/settings/profile', { cookie: alice.cookie })).body).toMatch(
        /value="named"[^>]*checked|checked=""[^>]*value="named"/,
      );
      const named = await api(`/winners?gachaId=${pack}`);
      expect(named.body.items.every((e: { name: string }) => e.name === '当選アリス')).toBe(true);

      const home = (await get('/')).body.replaceAll('<!-- -->', '');
      expect(home).toContain('みんなの当選履歴');
      expect(home).toContain(`テストパック ${pack}`);
      const page = (await get(`/gacha/${GENRE}/${pack}`)).body.replaceAll('<!-- -->', '');
      expect(page).toContain('みんなの当選履歴');
      expect(page).toContain('テストS');
      expect(page).toContain('当選アリス');
    });

    it('catches a stream opened with ?since= up on the wins since the page was rendered, and no further back', async () => {
      // A page rendered before the draw opens its streams afterwards: both wins arrive first, oldest first.
      const feed = await api(`/winners?gachaId=${pack}`);
      const ids = (feed.body.items as { id: string }[]).map((e) => e.id).reverse();
      const since = encodeURIComponent(new Date(Date.now() - 5 * 60_000).toISOString());
      for (const path of [`/api/v1/gachas/${pack}/events?since=${since}`, `/api/v1/winners/events?since=${since}`]) {
        const stream = await openEvents(path);
        try {
          const text = await stream.until(/event: win[\s\S]*event: win/);
          expect(
            winsOf(text)
              .filter((w) => w.gachaId === pack)
              .map((w) => w.id),
            path,
          ).toEqual(ids);
        } finally {
          stream.close();
        }
      }
      // Without since, a since older than the catch-up window, or a malformed one: live only, nothing replayed.
      const old = encodeURIComponent(new Date(Date.now() - 60 * 60_000).toISOString());
      for (const query of ['', `?since=${old}`, '?since=yesterday', `?since=${'9'.repeat(60)}`]) {
        const stream = await openEvents(`/api/v1/gachas/${pack}/events${query}`);
        try {
          await stream.until(/event: remaining/);
          // The catch-up follows the first event at once; the pack is sold out, so no live win can come.
          await expect(stream.until(/event: win/, 1_500), query).rejects.toThrow(/^no /);
        } finally {
          stream.close();
        }
      }
    });

    it("shows the member's own draws with their proof, never another member's (API and page)", async () => {
      const mine = await api('/me/draws', { member: alice });
      expect(mine.status).toBe(200);
      const item = mine.body.items.find((d: { drawId: string }) => d.drawId === aliceDraw);
      expect(item).toMatchObject({ gachaId: pack, count: 4, cost: 400, lastOne: true });
      expect(item.proof.seed).toMatch(/^[0-9a-f]{64}$/);
      expect(item.proof.positions).toEqual([1, 2, 3, 4]);
      expect(item.proof.verifyUrl).toBe(`/api/v1/gachas/${pack}/reveal`);
      expect((await api('/me/draws?hits=lastone', { member: alice })).body.items).toHaveLength(1);
      expect((await api('/me/draws?hits=kiriban', { member: alice })).body.items).toEqual([]);
      expect((await api(`/me/draws?gachaId=${pack}&period=7d`, { member: alice })).body.items).toHaveLength(1);
      const top = await eventually(
        () => api('/me/draws?hits=top', { member: alice }),
        (r) => r.body?.items?.length === 1,
      );
      expect(top.body.items[0].drawId).toBe(aliceDraw);

      // Bob: none of Alice's draws, by list, by pack filter or by page.
      const theirs = await api(`/me/draws?gachaId=${pack}`, { member: bob });
      expect(theirs.status).toBe(200);
      expect(theirs.body.items).toEqual([]);
      expect(JSON.stringify((await api('/me/draws', { member: bob })).body)).not.toContain(aliceDraw);
      const bobPage = await get(`/mypage/draws?pack=${pack}`, { cookie: bob.cookie });
      expect(bobPage.status).toBe(200);
      expect(bobPage.body).not.toContain(item.proof.seed);
      expect(bobPage.body).toContain('該当する抽選はありません');

      const alicePage = await get('/mypage/draws?hits=lastone', { cookie: alice.cookie });
      expect(alicePage.status).toBe(200);
      expect(alicePage.body).toContain(item.proof.seed);
      expect(alicePage.body).toContain('この抽選の証明を見る');
      expect(alicePage.body).toContain(`/api/v1/gachas/${pack}/reveal`);
      // A visitor is asked to sign in, and sees nobody's draws.
      const visitor = await get('/mypage/draws');
      expect(visitor.status).toBe(200);
      expect(visitor.body).toContain('ログインが必要です');
      expect(visitor.body).not.toContain(item.proof.seed);
    });

    it('answers bad input with a Japanese 4xx', async () => {
      const unsigned = await api('/me/draws');
      expect(unsigned.status).toBe(401);
      for (const path of [
        '/me/draws?period=1y',
        '/me/draws?hits=best',
        '/me/draws?limit=0',
        '/me/draws?cursor=%21%21',
      ]) {
        const answer = await api(path, { member: alice });
        expect(answer.status, path).toBe(400);
        expect(answer.body.error.message).toMatch(/[ぁ-んァ-ン一-龯]/);
      }
      for (const path of ['/winners?limit=500', '/winners?cursor=abc', '/winners?gachaId=%E3%81%82']) {
        const answer = await api(path);
        expect(answer.status, path).toBe(400);
        expect(answer.body.error.message).toMatch(/[ぁ-んァ-ン一-龯]/);
      }
      expect((await api('/winners?gachaId=no-such-pack')).status).toBe(404);
    });

    it("drops a hidden genre's pack from the feed, its API and the home page", async () => {
      await handle!.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
      const answer = await api(`/winners?gachaId=${pack}`);
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe('ガチャが見つかりません。');
      expect(JSON.stringify((await api('/winners?limit=50')).body)).not.toContain(pack);
      expect((await get('/')).body).not.toContain(`テストパック ${pack}`);
    });
  },
);
