// /api/v1/me/limits and /me/self-exclusion on a real database (docs/decisions/035): each member reads and
// changes only their own limits (no member id in any path: B's calls never touch A's), bad input is a Japanese
// 400, a retried key replays its first answer, and the draw and the coin shop of the same API honour them.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createApiV1 } from './index';
import { createApiTestServices, requestJson, signUpTestMember } from './testing';
import { grantCoins } from '#modules/wallet';
import { TEST_RULES } from '#tests/fixtures';
import type { ShopServices } from '#server/services';
import { paymentServicesFor } from '#server/payments';
import { ensureDefaultCoinPacks } from '#modules/payments';
import { sandboxHarness } from '#modules/payments/testing';

let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;
/** A demo pack on sale: 100 coins a draw, thousands of lots. */
const pack = { id: 'stellar-pokemon-003', pricePerDraw: 100 };

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('api_limits'));
  await ensureDefaultCoinPacks(services.db);
  services.payments = paymentServicesFor(sandboxHarness(services.db).gateway, TEST_RULES.payments);
  api = createApiV1(services);
});
afterAll(async () => {
  await close?.();
});

/** Paid coins for a member, as a purchase would credit them. */
const giveCoins = (memberId: string, amount: number) =>
  grantCoins(services.db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId,
    kind: 'paid',
    amount,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `test:api-limits:${memberId}`,
  });

const call = (bearer: string | null, path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  requestJson(api, path, {
    method: init.method,
    body: init.body,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(init.key ? { 'idempotency-key': init.key } : {}),
    },
  });

describe('the self-limits API', () => {
  it('needs a member', async () => {
    expect((await call(null, '/me/limits')).status).toBe(401);
    expect((await call(null, '/me/limits', { method: 'PUT', body: { drawLimitCoins: 100 } })).status).toBe(401);
    expect(
      (await call(null, '/me/self-exclusion', { method: 'POST', body: { months: 1, confirm: true } })).status,
    ).toBe(401);
  });

  it('lowers at once, raises in 7 days, cancels; only the caller’s own limits change (no IDOR)', async () => {
    const alice = await signUpTestMember(services);
    const bob = await signUpTestMember(services);
    const fresh = await call(alice.bearer, '/me/limits');
    expect(fresh.status).toBe(200);
    expect(fresh.json).toEqual({
      purchase: { limit: null, pending: null, used: 0, remaining: null, reminder: false },
      draw: { limit: null, pending: null, used: 0, remaining: null, reminder: false },
      exclusion: null,
      raiseWaitDays: 7,
    });
    const set = await call(alice.bearer, '/me/limits', {
      method: 'PUT',
      body: { purchaseLimitJpy: 10_000, drawLimitCoins: 3_000 },
    });
    expect(set.status).toBe(200);
    expect(set.json.changes.map((c: { applied: string }) => c.applied)).toEqual(['now', 'now']);
    expect(set.json.limits.purchase).toMatchObject({ limit: 10_000, remaining: 10_000 });
    const raise = await call(alice.bearer, '/me/limits', { method: 'PUT', body: { purchaseLimitJpy: 50_000 } });
    expect(raise.json.changes[0]).toMatchObject({ kind: 'purchase', applied: 'pending', value: 50_000 });
    const waitMs = Date.parse(raise.json.changes[0].effectiveAt) - Date.now();
    expect(waitMs).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(waitMs).toBeLessThanOrEqual(7 * 86_400_000);
    expect(raise.json.limits.purchase).toMatchObject({ limit: 10_000, pending: { value: 50_000 } });

    // Bob's calls see and change only Bob's: Alice's limits are untouched, and his cancel finds nothing of hers.
    expect((await call(bob.bearer, '/me/limits')).json.purchase).toMatchObject({ limit: null, pending: null });
    const bobsCancel = await call(bob.bearer, '/me/limits/purchase/pending', { method: 'DELETE' });
    expect(bobsCancel.status).toBe(409);
    expect(bobsCancel.json.error).toMatchObject({
      code: 'NO_PENDING_LIMIT_CHANGE',
      message: '取り消せる上限の変更予約はありません。',
    });
    await call(bob.bearer, '/me/limits', { method: 'PUT', body: { purchaseLimitJpy: 1 } });
    expect((await call(alice.bearer, '/me/limits')).json.purchase).toMatchObject({
      limit: 10_000,
      pending: { value: 50_000 },
    });

    const cancel = await call(alice.bearer, '/me/limits/purchase/pending', { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    expect(cancel.json.purchase).toMatchObject({ limit: 10_000, pending: null });
    // There is no way to name another member: a member id in the path is simply not a route.
    expect((await call(alice.bearer, `/members/${bob.id}/limits`)).status).toBe(404);
  });

  it('answers bad input with a Japanese 400', async () => {
    const member = await signUpTestMember(services);
    const cases: [string, string, unknown, RegExp][] = [
      ['PUT', '/me/limits', {}, /変更する上限を指定してください/],
      ['PUT', '/me/limits', { purchaseLimitJpy: -5 }, /0以上/],
      ['PUT', '/me/limits', { drawLimitCoins: 12.5 }, /整数/],
      ['PUT', '/me/limits', { purchaseLimitJpy: '1000' }, /整数/],
      ['PUT', '/me/limits', { purchaseLimitJpy: 99_999_999 }, /以下/],
      ['POST', '/me/self-exclusion', { months: 2, confirm: true }, /1か月・3か月・6か月/],
      ['POST', '/me/self-exclusion', { months: 3 }, /解除・短縮/],
      ['DELETE', '/me/limits/everything/pending', undefined, /purchase か draw/],
    ];
    for (const [method, path, body, message] of cases) {
      const answer = await call(member.bearer, path, { method, body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.json.error.code).toBe('VALIDATION_FAILED');
      expect(answer.json.error.message).toBe('入力内容に誤りがあります。');
      expect(Object.values(answer.json.error.details.fields).join(' ')).toMatch(message);
    }
    const broken = await requestJson(api, '/me/limits', {
      method: 'PUT',
      headers: { authorization: `Bearer ${member.bearer}`, 'content-type': 'application/json' },
      rawBody: '{"purchaseLimitJpy":',
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.message).toMatch(/[ぁ-んァ-ン]/);
  });

  it('self-excludes once per key, refuses a shorter one, and then the draw and the shop refuse', async () => {
    const member = await signUpTestMember(services);
    await giveCoins(member.id, 5_000);
    const key = randomUUID();
    const first = await call(member.bearer, '/me/self-exclusion', {
      method: 'POST',
      body: { months: 3, confirm: true },
      key,
    });
    expect(first.status).toBe(201);
    expect(first.json.lastDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first.json.limits.exclusion).toEqual({ until: first.json.until, lastDay: first.json.lastDay });
    const replay = await call(member.bearer, '/me/self-exclusion', {
      method: 'POST',
      body: { months: 3, confirm: true },
      key,
    });
    expect(replay).toMatchObject({ status: 201, json: first.json });
    const reused = await call(member.bearer, '/me/self-exclusion', {
      method: 'POST',
      body: { months: 6, confirm: true },
      key,
    });
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const shorter = await call(member.bearer, '/me/self-exclusion', {
      method: 'POST',
      body: { months: 1, confirm: true },
    });
    expect(shorter.status).toBe(409);
    expect(shorter.json.error.code).toBe('SELF_EXCLUSION_ALREADY_LONGER');
    expect(shorter.json.error.message).toMatch(/期間の短縮・解除はできません/);

    const [y, m, d] = (first.json.lastDay as string).split('-').map(Number);
    const words = `自己除外期間中（${y}年${m}月${d}日まで）は購入・ガチャができません。`;
    const drawn = await requestJson(api, `/gachas/${pack.id}/draws`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.bearer}`, 'idempotency-key': randomUUID() },
      body: { count: 1 },
    });
    expect(drawn.status).toBe(403);
    expect(drawn.json.error).toMatchObject({ code: 'SELF_EXCLUDED' });
    expect(drawn.json.error.message).toContain(words);
    await call(member.bearer, '/me/age-declaration', { method: 'PUT', body: { minor: false } });
    const bought = await call(member.bearer, '/me/purchases', {
      method: 'POST',
      body: { packId: 'coin-1000', method: 'sandbox' },
      key: randomUUID(),
    });
    expect(bought.status).toBe(403);
    expect(bought.json.error).toMatchObject({ code: 'SELF_EXCLUDED' });
    expect(bought.json.error.message).toContain(words);
    const shop = await call(member.bearer, '/coin-shop');
    expect(shop.json.standing).toMatchObject({ excludedUntil: first.json.until, selfLimitJpy: null });
  });

  it('refuses a draw over the draw-spend limit with its own words', async () => {
    const member = await signUpTestMember(services);
    await giveCoins(member.id, 50_000);
    await call(member.bearer, '/me/limits', { method: 'PUT', body: { drawLimitCoins: pack.pricePerDraw } });
    const draw = () =>
      requestJson(api, `/gachas/${pack.id}/draws`, {
        method: 'POST',
        headers: { authorization: `Bearer ${member.bearer}`, 'idempotency-key': randomUUID() },
        body: { count: 1 },
      });
    expect((await draw()).status).toBe(201);
    const over = await draw();
    expect(over.status).toBe(422);
    expect(over.json.error.code).toBe('DRAW_SPEND_LIMIT_REACHED');
    expect(over.json.error.message).toContain(
      `今月のガチャ消費上限（${pack.pricePerDraw.toLocaleString('ja-JP')}コイン）に達しています`,
    );
    const state = await call(member.bearer, '/me/limits');
    expect(state.json.draw).toMatchObject({
      limit: pack.pricePerDraw,
      used: pack.pricePerDraw,
      remaining: 0,
      reminder: true,
    });
  });
});
