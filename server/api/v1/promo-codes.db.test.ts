// /api/v1/me/promo-codes/redemptions on a real database: a redemption credits free coins once, each
// refusal is a Japanese 4xx, the attempts are rate-limited per member, and a member sees only their own history.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createApiV1 } from './index';
import { createApiTestServices, requestJson, signUpTestMember } from './testing';
import { createPromoCode } from '#modules/promo';
import { CLIENT_IP_HEADER } from '#modules/identity';
import { getBalance } from '#modules/wallet';
import type { ShopServices } from '#server/services';

let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('api_promo'));
  api = createApiV1(services);
});
afterAll(async () => {
  await close?.();
});

async function newCode(typed: string, over: { maxRedemptions?: number | null } = {}) {
  const made = await createPromoCode(services.db, {
    code: typed,
    label: 'APIキャンペーン',
    coins: 200,
    startsAt: new Date(Date.now() - 3_600_000),
    endsAt: new Date(Date.now() + 86_400_000),
    maxRedemptions: over.maxRedemptions ?? null,
    newMemberDays: null,
    minRank: null,
    createdBy: 'staff',
  });
  if (!made.ok) throw new Error(made.code);
  return made.code;
}

const redeem = (bearer: string, code: unknown, address = '198.51.100.7') =>
  requestJson(api, '/me/promo-codes/redemptions', {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, [CLIENT_IP_HEADER]: address },
    body: { code },
  });

describe('POST /me/promo-codes/redemptions', () => {
  it('grants the coins once, whatever the case and width, and lists only the member’s own history', async () => {
    const member = await signUpTestMember(services);
    const other = await signUpTestMember(services);
    await newCode('API-SPRING-2027');
    const done = await redeem(member.bearer, 'ａｐｉ－ｓｐｒｉｎｇ－２０２７');
    expect(done.status).toBe(201);
    expect(done.json).toMatchObject({ label: 'APIキャンペーン', coins: 200 });
    expect((await getBalance(services.db, member.id)).free).toBe(200);
    const again = await redeem(member.bearer, 'apispring2027');
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('PROMO_CODE_ALREADY_REDEEMED');
    expect(again.json.error.message).toContain('利用済み');
    const mine = await requestJson(api, '/me/promo-codes/redemptions', {
      headers: { authorization: `Bearer ${member.bearer}` },
    });
    expect(mine.json.items).toHaveLength(1);
    expect(mine.json.items[0].id).toBe(done.json.id);
    const theirs = await requestJson(api, '/me/promo-codes/redemptions', {
      headers: { authorization: `Bearer ${other.bearer}` },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.json.items).toEqual([]);
  });

  it('answers bad input and unknown codes with Japanese 4xx, and needs a member', async () => {
    const member = await signUpTestMember(services);
    const blank = await redeem(member.bearer, '');
    expect(blank.status).toBe(400);
    const shape = await redeem(member.bearer, '!?');
    expect(shape.status).toBe(422);
    expect(shape.json.error.message).toMatch(/英数字/);
    const unknown = await redeem(member.bearer, 'NOPE-NOPE-NOPE');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toMatch(/見つかりません/);
    const anonymous = await requestJson(api, '/me/promo-codes/redemptions', { method: 'POST', body: { code: 'X' } });
    expect(anonymous.status).toBe(401);
  });

  it('rate-limits a member’s attempts with a Japanese 429 and Retry-After', async () => {
    const member = await signUpTestMember(services);
    let last = await redeem(member.bearer, 'GUESS0000');
    for (let i = 1; i <= 10 && last.status !== 429; i++)
      last = await redeem(member.bearer, `GUESS${i}AAAA`, `203.0.113.${i}`);
    expect(last.status).toBe(429);
    expect(last.json.error.code).toBe('PROMO_CODE_RATE_LIMITED');
    expect(last.json.error.message).toMatch(/待って/);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
