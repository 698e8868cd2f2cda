// The draw, wallet and prize API against the built shop: ownership (another member's result or
// prize is a 404), idempotency (a retry replays, a reused key is refused, concurrent duplicates
// draw once), refusals with Japanese messages, and the live stream. Members and coins are made
// through the operator command line on the shop's database, so this file needs PostgreSQL.
import { TEST_RULES, grantPaidCoinsByEmail } from '#tests/fixtures';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { runAdminCommand } from '../../scripts/shop-admin';
import { getBalance, checkInvariants, grantCoins } from '#modules/wallet';
import { listPrizes } from '#modules/draw';
import { get, postForm, cookieFrom, uniqueEmail, signUpByForm } from '#tests/http';
import { testShop } from '#tests/test-shop';

const base = testShop().url;
const databaseUrl = testShop().databaseUrl;
const PACK = 'stellar-pokemon-003'; // 100 coins a draw, thousands of lots
let handle: DatabaseHandle | undefined;
let alice: { id: string; token: string };
let bob: { id: string; token: string };

async function api(
  path: string,
  options: { token?: string; method?: string; body?: unknown; key?: string; rawBody?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.key) headers['idempotency-key'] = options.key;
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api/v1${path}`, {
    method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

const draw = (token: string, count: number, key = randomUUID()) =>
  api(`/gachas/${PACK}/draws`, { token, body: { count }, key });

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  const lines: string[] = [];
  await runAdminCommand(
    handle.db,
    ['members:create', '--count', '2', '--coins', '20000', '--prefix', 'apitest'],
    (line) => lines.push(line),
    { lifetimes: TEST_RULES.coinLifetimes },
  );
  const { members } = JSON.parse(lines[0]!) as { members: { id: string; token: string }[] };
  [alice, bob] = members as [typeof alice, typeof bob];
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `draw API${databaseUrl ? '' : ' (skipped: needs PostgreSQL for the operator command line beside the shop)'}`,
  () => {
    it('draws 10 for 10 × price and replays the same answer for the same key', async () => {
      const key = randomUUID();
      const first = await draw(alice.token, 10, key);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        gachaId: PACK,
        count: 10,
        cost: 1000,
        replay: false,
        balance: { paid: 19_000, free: 0 },
      });
      expect(first.body.items).toHaveLength(10);
      const again = await draw(alice.token, 10, key);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(first.body.id);
      expect(again.body.replay).toBe(true);
      expect(again.body.items.map((i: { id: string }) => i.id)).toEqual(
        first.body.items.map((i: { id: string }) => i.id),
      );
      const reused = await draw(alice.token, 1, key);
      expect(reused.status).toBe(409);
      expect(reused.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      expect((await getBalance(handle!.db, alice.id)).paid).toBe(19_000);
    });

    it('takes effect once for concurrent duplicates of one key', async () => {
      const key = randomUUID();
      const before = (await getBalance(handle!.db, alice.id)).total;
      const answers = await Promise.all(Array.from({ length: 12 }, () => draw(alice.token, 1, key)));
      expect(answers.every((a) => a.status === 201 || a.status === 200)).toBe(true);
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect((await getBalance(handle!.db, alice.id)).total).toBe(before - 100);
    });

    it("answers 404 for another member's result and prizes, and lists only one's own", async () => {
      const mine = await draw(alice.token, 1);
      const prizeId = mine.body.items[0].id;
      expect((await api(`/gachas/${PACK}/draws/${mine.body.id}`, { token: alice.token })).status).toBe(200);
      const peek = await api(`/gachas/${PACK}/draws/${mine.body.id}`, { token: bob.token });
      expect(peek.status).toBe(404);
      expect(peek.body.error.code).toBe('DRAW_NOT_FOUND');
      expect((await api('/me/prizes/conversions', { token: bob.token, body: { prizeIds: [prizeId] } })).status).toBe(
        404,
      );
      expect((await api('/me/prizes/keeps', { token: bob.token, body: { prizeIds: [prizeId] } })).status).toBe(404);
      const bobsBox = await api('/me/prizes', { token: bob.token });
      expect(bobsBox.body.items.some((p: { id: string }) => p.id === prizeId)).toBe(false);
      const bobsWallet = await api('/me/wallet', { token: bob.token });
      expect(bobsWallet.body).toMatchObject({ paid: 20_000, free: 0, total: 20_000 });
      const page = await fetch(`${base}/gacha/pokemon/${PACK}/result/${mine.body.id}`, {
        headers: { authorization: `Bearer ${bob.token}` },
        redirect: 'manual',
      });
      expect([302, 404]).toContain(page.status);
      // the owner converts once; a second conversion is refused and credits nothing
      const converted = await api('/me/prizes/conversions', {
        token: alice.token,
        body: { prizeIds: [prizeId] },
        key: randomUUID(),
      });
      expect(converted.status).toBe(200);
      expect(converted.body.total).toBe(mine.body.items[0].conversionValue);
      expect(
        (await api('/me/prizes/conversions', { token: alice.token, body: { prizeIds: [prizeId] } })).body.error.code,
      ).toBe('PRIZE_ALREADY_DECIDED');
    });

    it('replays a conversion for the same key and refuses the key with another body', async () => {
      const won = await draw(bob.token, 10);
      const [a, b] = won.body.items as { id: string; conversionValue: number }[];
      const key = randomUUID();
      const first = await api('/me/prizes/conversions', { token: bob.token, body: { prizeIds: [a!.id] }, key });
      const again = await api('/me/prizes/conversions', { token: bob.token, body: { prizeIds: [a!.id] }, key });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect((await api('/me/prizes/conversions', { token: bob.token, body: { prizeIds: [b!.id] }, key })).status).toBe(
        409,
      );
      const entries = await api('/me/wallet/entries?limit=5', { token: bob.token });
      expect(entries.body.items.filter((e: { reason: string }) => e.reason === 'prize_conversion')).toHaveLength(1);
    });

    it('undoes a conversion once by the API within its window; another member’s is 404', async () => {
      const won = await draw(bob.token, 10);
      const ids = (won.body.items as { id: string }[]).slice(0, 2).map((p) => p.id);
      const before = await getBalance(handle!.db, bob.id);
      const converted = await api('/me/prizes/conversions', { token: bob.token, body: { prizeIds: ids } });
      expect(converted.status).toBe(200);
      expect(converted.body.undo).toMatchObject({ conversionId: expect.any(String), seconds: expect.any(Number) });
      expect(Date.parse(converted.body.undo.until)).toBeGreaterThan(Date.now());
      const path = `/me/prizes/conversions/${converted.body.undo.conversionId}/undo`;
      // Another member cannot see or undo it; a malformed id is the same 404.
      expect(await api(path, { token: alice.token, body: {} })).toMatchObject({
        status: 404,
        body: { error: { code: 'CONVERSION_NOT_FOUND', message: '元に戻せる交換が見つかりません。' } },
      });
      expect((await api('/me/prizes/conversions/not-a-uuid/undo', { token: bob.token, body: {} })).status).toBe(404);
      // A double tap: one undo, the other answers it as a replay.
      const answers = await Promise.all([0, 1].map(() => api(path, { token: bob.token, body: {} })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => a.body.replay).sort()).toEqual([false, true]);
      expect(answers[0]!.body).toMatchObject({ restored: 2, total: converted.body.total });
      expect(await getBalance(handle!.db, bob.id)).toEqual(before);
      const box = await api('/me/prizes?limit=100', { token: bob.token });
      for (const id of ids) expect(box.body.items.find((p: { id: string }) => p.id === id)?.status, id).toBe('pending');
    });

    it('never converts a kept prize without includeKept: a bulk request converts nothing and says why', async () => {
      const won = await draw(alice.token, 10);
      const ids = (won.body.items as { id: string }[]).map((p) => p.id);
      const [keptId, ...undecided] = ids as [string, ...string[]];
      expect((await api('/me/prizes/keeps', { token: alice.token, body: { prizeIds: [keptId] } })).status).toBe(200);
      const before = await getBalance(handle!.db, alice.id);
      const bulk = await api('/me/prizes/conversions', {
        token: alice.token,
        body: { prizeIds: ids },
        key: randomUUID(),
      });
      expect(bulk.status).toBe(409);
      expect(bulk.body.error).toMatchObject({ code: 'PRIZE_KEPT', message: expect.stringMatching(/保管中のカード/) });
      const explicitFalse = await api('/me/prizes/conversions', {
        token: alice.token,
        body: { prizeIds: [keptId], includeKept: false },
      });
      expect(explicitFalse.body.error.code).toBe('PRIZE_KEPT');
      expect(await getBalance(handle!.db, alice.id)).toEqual(before);
      const box = await api('/me/prizes?limit=100', { token: alice.token });
      const statusOf = (id: string) => box.body.items.find((p: { id: string }) => p.id === id)?.status;
      expect(statusOf(keptId)).toBe('kept');
      expect(undecided.every((id) => statusOf(id) === 'pending')).toBe(true);
      // The undecided ones convert as a bulk; the kept one only with the flag, on its own.
      expect((await api('/me/prizes/conversions', { token: alice.token, body: { prizeIds: undecided } })).status).toBe(
        200,
      );
      const single = await api('/me/prizes/conversions', {
        token: alice.token,
        body: { prizeIds: [keptId], includeKept: true },
      });
      expect(single.status).toBe(200);
      expect(single.body.converted).toHaveLength(1);
      expect(
        (await api('/me/prizes/conversions', { token: alice.token, body: { prizeIds: [keptId], includeKept: 'yes' } }))
          .status,
      ).toBe(400);
    });

    it('refuses bad requests with 4xx and Japanese messages, never a 5xx', async () => {
      expect((await api(`/gachas/${PACK}/draws`, { body: { count: 1 }, key: randomUUID() })).status).toBe(401);
      const noKey = await api(`/gachas/${PACK}/draws`, { token: alice.token, body: { count: 1 } });
      expect(noKey.status).toBe(400);
      expect(noKey.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
      const badCount = await draw(alice.token, 3);
      expect(badCount.status).toBe(400);
      expect(badCount.body.error).toMatchObject({
        code: 'DRAW_COUNT_INVALID',
        message: 'このガチャでは選べない回数です。',
      });
      const broken = await api(`/gachas/${PACK}/draws`, {
        token: alice.token,
        rawBody: '{"count":',
        key: randomUUID(),
      });
      expect(broken.status).toBe(400);
      expect(
        (await api('/gachas/nai-gacha/draws', { token: alice.token, body: { count: 1 }, key: randomUUID() })).status,
      ).toBe(404);
      const poor = await api('/gachas/stellar-weiss-002/draws', {
        token: bob.token,
        body: { count: 100 },
        key: randomUUID(),
      });
      expect(poor.status).toBe(422);
      expect(poor.body.error.code).toBe('INSUFFICIENT_COINS');
      expect(poor.body.error.message).toMatch(/コインが不足しています/);
      await grantCoins(handle!.db, {
        lifetimeDays: TEST_RULES.coinLifetimes,
        memberId: bob.id,
        kind: 'free',
        amount: 200_000,
        reason: 'operator_grant',
        counterAccount: 'promotion',
        idempotencyKey: `test:${randomUUID()}`,
      });
      const tooMuch = await api('/gachas/stellar-pokemon-002/draws', {
        token: bob.token,
        body: { count: 10 },
        key: randomUUID(),
      });
      expect(tooMuch.status).toBe(409);
      expect(tooMuch.body.error.code).toBe('NOT_ENOUGH_LOTS');
      expect(tooMuch.body.error.details.remaining).toBeGreaterThan(0);
      const soldOut = await api('/gachas/stellar-yugioh-002/draws', {
        token: bob.token,
        body: { count: 1 },
        key: randomUUID(),
      });
      expect(soldOut.status).toBe(409);
      expect(soldOut.body.error.code).toBe('SOLD_OUT');
      expect((await api('/me/prizes/conversions', { token: bob.token, body: { prizeIds: ['x'] } })).status).toBe(400);
      const forged = Buffer.from(JSON.stringify({ createdAt: 'x', id: 'y' })).toString('base64url');
      const badCursor = await api(`/me/prizes?cursor=${forged}`, { token: bob.token });
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.error.code).toBe('CURSOR_INVALID');
    });

    it('serves the remaining counts, the live stream and the reveal of a sold-out pack', async () => {
      const remaining = await api(`/gachas/${PACK}/remaining`);
      expect(remaining.status).toBe(200);
      expect(
        remaining.body.tiers.reduce(
          (sum: number, t: { remaining: number; isLastOne: boolean }) => sum + (t.isLastOne ? 0 : t.remaining),
          0,
        ),
      ).toBe(remaining.body.remaining);
      const controller = new AbortController();
      const stream = await fetch(`${base}/api/v1/gachas/${PACK}/events`, { signal: controller.signal });
      expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = stream.body!.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toMatch(/event: remaining/);
      controller.abort();
      expect((await api('/gachas/nai-gacha/events')).status).toBe(404);
      const reveal = await api('/gachas/stellar-yugioh-002/reveal');
      expect(reveal.status).toBe(200);
      expect(reveal.body.format).toBe('oripa-pack-reveal/1');
      expect((await api(`/gachas/${PACK}/reveal`)).status).toBe(409);
    });

    it('shows the キリ番賞 on the pack page and in its JSON: the numbers, and the lots to the next one', async () => {
      // The demo pack 星降る夜のハイレアオリパ: キリ番 100, 500, 777; its demo draws took the 100th lot.
      const page = await get('/gacha/pokemon/stellar-pokemon-001');
      expect(page.status).toBe(200);
      const html = page.body.replaceAll('<!-- -->', ''); // React's markers between text pieces
      const drawn = Number(/data-testid="pack-drawn"[^>]*>([\d,]+)</.exec(html)?.[1]?.replace(/,/g, ''));
      expect(drawn).toBeGreaterThanOrEqual(100);
      expect(drawn).toBeLessThan(500);
      expect(html).toContain('キリ番賞あり');
      const left = /data-testid="kiriban-left"[^>]*>([\d,]+)</.exec(html)?.[1];
      expect(Number(left)).toBe(500 - drawn);
      expect(html).toMatch(/次のキリ番 <b>500口目<\/b>/);
      expect(html).toContain('100口目（獲得済み）');
      expect(html).toContain('777口目');
      expect(html).toContain('100口目・500口目・777口目を引いた方にプレゼント');
      const pack = await api('/gachas/stellar-pokemon-001');
      expect(pack.status).toBe(200);
      expect(pack.body.kiriban).toMatchObject({ numbers: [100, 500, 777], next: 500 });
      expect(pack.body.kiriban.lotsToNext).toBe(500 - pack.body.kiriban.sold);
      const counts = await api('/gachas/stellar-pokemon-001/remaining');
      expect(counts.body.kiriban).toMatchObject({ numbers: [100, 500, 777], next: 500 });
      expect(counts.body.tiers.find((t: { kiribanAt: number[] | null }) => t.kiribanAt)).toMatchObject({
        kiribanAt: [100, 500, 777],
        quantity: 3,
        remaining: 2,
      });
      expect((await api(`/gachas/${PACK}`)).body.kiriban).toBeNull();
    });

    it('draws from the pack page without JavaScript: confirmation by URL, form post, result, choices', async () => {
      const email = uniqueEmail('nojs-draw');
      const signUp = await signUpByForm({
        name: 'スクリプトなし',
        email,
        password: 'nojs-draw-pass-1',
        agreeToTerms: 'on',
      });
      const cookie = cookieFrom(signUp.headers);
      const memberId = await grantPaidCoinsByEmail(handle!.db, email, 1_000);
      const confirm = await get(`/gacha/pokemon/${PACK}?confirm=10`, { cookie });
      expect(confirm.status).toBe(200);
      expect(confirm.body).toContain('10連を引きますか？');
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.body)?.[1];
      expect(key).toBeTruthy();
      const drawn = await postForm(`/gacha/pokemon/${PACK}`, { count: '10', idempotencyKey: key! }, { cookie });
      expect(drawn.status).toBe(302);
      expect(drawn.location).toMatch(new RegExp(`^/gacha/pokemon/${PACK}/result/[0-9a-f-]{36}\\?reveal=1$`));
      // the same form sent twice (a double tap) lands on the same result and pays once
      const twice = await postForm(`/gacha/pokemon/${PACK}`, { count: '10', idempotencyKey: key! }, { cookie });
      expect(twice.location).toBe(drawn.location);
      expect((await getBalance(handle!.db, memberId)).total).toBe(0);
      for (const odd of [
        '/mypage?tab=coins&before=1e30',
        '/mypage?tab=coins&before=-1',
        '/mypage?tab=prizes&pt=x&pi=y',
        '/mypage?tab=prizes&pt=2024-02-31T00:00:00Z&pi=00000000-0000-0000-0000-000000000000',
        '/mypage?tab=prizes&pt=2024-01-01T00:00:00Z&pi=------------------------------------',
        '/mypage?tab=prizes&pt=0000-01-01T00:00:00Z&pi=00000000-0000-0000-0000-000000000000',
      ]) {
        expect((await get(odd, { cookie })).status, odd).toBe(200);
      }
      const result = await get(drawn.location!, { cookie });
      expect(result.status).toBe(200);
      expect(result.body).toContain('抽選結果');
      const poorer = await postForm(
        `/gacha/pokemon/${PACK}`,
        { count: '1', idempotencyKey: 'nojs-short-1' },
        { cookie },
      );
      expect(poorer.status).toBe(422);
      expect(poorer.body).toContain('コインが不足しています');
      // The choices without JavaScript: each confirmation opens from the URL; a bulk conversion never takes a kept card.
      const resultPath = drawn.location!.split('?')[0]!;
      const won = (await listPrizes(handle!.db, memberId, { status: ['pending'] })).items.filter((p) =>
        resultPath.endsWith(p.drawId),
      );
      expect(won).toHaveLength(10);
      const [keptPrize, ...others] = won;
      expect((await postForm(resultPath, { intent: 'keep', prizeIds: keptPrize!.prizeId }, { cookie })).status).toBe(
        200,
      );
      // The bulk sheet starts with the pack's lowest tier only (decision 057), never every undecided card.
      const sheet = await get(`${resultPath}?sheet=convert`, { cookie });
      const lowest = others.filter((p) => p.tiersBelow === 0);
      expect(lowest.length).toBeGreaterThan(0);
      const othersValue = lowest.reduce((sum, p) => sum + p.conversionValue, 0);
      expect(sheet.body).toContain(`${lowest.length}枚を${othersValue.toLocaleString('ja-JP')}コインに交換します`);
      const bulkIds =
        /name="intent" value="convert"\/><input type="hidden" name="prizeIds" value="([^"]+)"/
          .exec(sheet.body)?.[1]
          ?.split(',') ?? [];
      expect(bulkIds.sort()).toEqual(lowest.map((p) => p.prizeId).sort());
      // A forged bulk form with the kept card in it converts nothing; convertKept takes one card only.
      const forged = await postForm(
        resultPath,
        { intent: 'convert', prizeIds: won.map((p) => p.prizeId).join(',') },
        { cookie },
      );
      expect(forged.status).toBe(409);
      expect(forged.body).toContain('保管中のカード');
      expect(
        (
          await postForm(
            resultPath,
            {
              intent: 'convertKept',
              prizeIds: won
                .slice(0, 2)
                .map((p) => p.prizeId)
                .join(','),
            },
            { cookie },
          )
        ).status,
      ).toBe(400);
      expect((await postForm(resultPath, { intent: 'burn', prizeIds: keptPrize!.prizeId }, { cookie })).status).toBe(
        400,
      );
      expect((await getBalance(handle!.db, memberId)).total).toBe(0);
      expect((await postForm(resultPath, { intent: 'convert', prizeIds: bulkIds.join(',') }, { cookie })).status).toBe(
        200,
      );
      expect((await getBalance(handle!.db, memberId)).total).toBe(othersValue);
      const keptSheet = await get(`${resultPath}?prize=${keptPrize!.prizeId}&confirm=kept`, { cookie });
      expect(keptSheet.body).toContain('「元に戻す」で取り消せます');
      expect(keptSheet.body).toContain('name="intent" value="convertKept"');
      expect(
        (await postForm(resultPath, { intent: 'convertKept', prizeIds: keptPrize!.prizeId }, { cookie })).status,
      ).toBe(200);
      expect((await getBalance(handle!.db, memberId)).total).toBe(othersValue + keptPrize!.conversionValue);
      // 元に戻す without JavaScript (decision 057): the answer carries the conversion's form.
      // A card the bulk conversion left (a higher tier), if the draw won one.
      const higher = others.find((p) => !bulkIds.includes(p.prizeId));
      const converted = higher
        ? await postForm(resultPath, { intent: 'convert', prizeIds: higher.prizeId }, { cookie })
        : null;
      const conversionId = converted && /name="conversionId" value="([0-9a-f-]{36})"/.exec(converted.body)?.[1];
      if (higher) expect(conversionId).toBeDefined();
      const stranger = await signUpByForm({
        name: 'よその人',
        email: uniqueEmail('nojs-other'),
        password: 'nojs-other-pass-1',
        agreeToTerms: 'on',
      });
      expect((await get(drawn.location!.split('?')[0]!, { cookie: cookieFrom(stranger.headers) })).status).toBe(404);
      const strangersCard = (await listPrizes(handle!.db, alice.id, { limit: 1 })).items[0]!;
      expect(
        (
          await postForm(
            '/mypage',
            { intent: 'convert', prizeIds: strangersCard.prizeId },
            { cookie: cookieFrom(stranger.headers) },
          )
        ).status,
      ).toBe(404);
      if (higher && conversionId) {
        const balance = await getBalance(handle!.db, memberId);
        const strangersUndo = await postForm(
          resultPath,
          { intent: 'undo', conversionId },
          { cookie: cookieFrom(stranger.headers) },
        );
        expect(strangersUndo.status).toBe(404);
        expect(await getBalance(handle!.db, memberId)).toEqual(balance);
        const undone = await postForm(resultPath, { intent: 'undo', conversionId }, { cookie });
        expect(undone.status).toBe(200);
        expect(undone.body).toContain('交換を取り消しました');
        const again = await postForm(resultPath, { intent: 'undo', conversionId }, { cookie });
        expect(again.status).toBe(200);
        expect((await getBalance(handle!.db, memberId)).total).toBe(balance.total - higher.conversionValue);
        const forged = await postForm(resultPath, { intent: 'undo', conversionId: 'not-an-id' }, { cookie });
        expect(forged.status).toBe(400);
      }
    });
  },
);
