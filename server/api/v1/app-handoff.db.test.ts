// D5: one-time tokens for the app's web view are limited per member and per client address
// (APP_HANDOFF_PER_MINUTE, counted in the database): a burst beyond the limit gets 429 in Japanese
// with Retry-After, and no token row is written beyond the limit.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { like } from 'drizzle-orm';
import { createApiV1 } from './index';
import { createApiTestServices, requestJson, signUpTestMember } from './testing';
import { verifications } from '#db/schema';
import type { ShopServices } from '#server/services';

const LIMIT = 4;
let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('handoff'));
  services.config = { ...services.config, APP_HANDOFF_PER_MINUTE: LIMIT };
  api = createApiV1(services);
});
afterAll(async () => {
  await close?.();
});

const tokenRows = async () =>
  (
    await services.db
      .select({ id: verifications.id })
      .from(verifications)
      .where(like(verifications.identifier, 'one-time-token:%'))
  ).length;
const handoff = (member: { bearer: string }, address: string) =>
  requestJson(api, '/me/app-handoffs', {
    method: 'POST',
    headers: { authorization: `Bearer ${member.bearer}`, 'x-shop-client-ip': address },
  });

describe('POST /me/app-handoffs', () => {
  it('answers 429 beyond the limit per member, in a burst, and writes no row beyond it', async () => {
    const member = await signUpTestMember(services);
    const before = await tokenRows();
    // Different addresses: only the member's own count can refuse.
    const answers = await Promise.all(Array.from({ length: LIMIT * 3 }, (_, i) => handoff(member, `10.0.1.${i}`)));
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(created).toHaveLength(LIMIT);
    expect(refused).toHaveLength(LIMIT * 2);
    expect(refused[0]!.json).toEqual({
      error: expect.objectContaining({ code: 'RATE_LIMITED', message: expect.stringMatching(/しばらく時間をおいて/) }),
    });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await tokenRows()).toBe(before + LIMIT);
  });

  it('answers 429 beyond the limit per client address, whoever asks', async () => {
    const members = await Promise.all(Array.from({ length: LIMIT + 2 }, () => signUpTestMember(services)));
    const before = await tokenRows();
    const answers = await Promise.all(members.map((member) => handoff(member, '10.0.2.1')));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(2);
    expect(await tokenRows()).toBe(before + LIMIT);
    // Another address is counted on its own.
    expect((await handoff(members[0]!, '10.0.2.2')).status).toBe(201);
  });

  it('counts again once the minute is over', async () => {
    const { takeRateLimit } = await import('#modules/identity');
    const key = `test:${Date.now()}`;
    const start = new Date('2026-11-23T00:00:00Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    expect((await takeRateLimit(services.db, { key, windowSeconds: 60, max: 1, now: start })).allowed).toBe(true);
    expect(await takeRateLimit(services.db, { key, windowSeconds: 60, max: 1, now: at(50) })).toEqual({
      allowed: false,
      retryAfterSeconds: 10,
    });
    expect((await takeRateLimit(services.db, { key, windowSeconds: 60, max: 1, now: at(61) })).allowed).toBe(true);
  });
});
