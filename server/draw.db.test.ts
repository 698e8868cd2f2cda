// The one draw use case both entrances call (issue 30 item 2), on a real database: a known member draws;
// the API's session is resolved inside the draw's own call, or the usual way for a pack with a minimum
// rank (refused below it); a session that names nobody answers null; the live counts hear of a new draw
// once, never of a replay.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { createMemberWithSession } from '#modules/identity';
import { grantCoins } from '#modules/wallet';
import { drawForMember } from './draw';

const handle = useTestDatabase('draw-use-case');

async function memberWithCoins(coins: number) {
  const id = `m_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const sessionToken = randomUUID();
  await createMemberWithSession(handle.db, {
    id,
    name: 'ひくひと',
    email: `${id}@example.test`,
    sessionToken,
    sessionExpiresAt: new Date(Date.now() + 30 * 86_400_000),
  });
  await grantCoins(handle.db, {
    memberId: id,
    kind: 'paid',
    amount: coins,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `use-case:${id}`,
    lifetimeDays: TEST_RULES.coinLifetimes,
  });
  return { id, sessionToken };
}

function servicesHearing() {
  const changed: string[] = [];
  return {
    changed,
    services: {
      db: handle.db,
      config: { PRIZE_DECISION_DAYS: TEST_RULES.prizeDecisionDays },
      live: { noteChange: (gachaId: string) => void changed.push(gachaId) },
    } as unknown as Parameters<typeof drawForMember>[0],
  };
}

describe('drawForMember', () => {
  it('draws for a known member and for a session, and tells the live counts of new draws only', async () => {
    const { services, changed } = servicesHearing();
    const gachaId = await createPublishedPack(handle.db, { lots: 20, price: 100 });
    const member = await memberWithCoins(1_000);
    const request = { gachaId, count: 1, idempotencyKey: `web:${randomUUID()}` };
    const first = await drawForMember(services, { memberId: member.id }, request);
    expect(first).toMatchObject({ ok: true, result: { replay: false, gachaId } });
    expect(await drawForMember(services, { memberId: member.id }, request)).toMatchObject({
      ok: true,
      result: { replay: true },
    });
    const bySession = await drawForMember(
      services,
      { sessionToken: member.sessionToken, resolveMember: async () => ({ id: member.id }) },
      { gachaId, count: 1, idempotencyKey: `api:${randomUUID()}` },
    );
    expect(bySession).toMatchObject({ ok: true, result: { replay: false, gachaId } });
    expect(changed).toEqual([gachaId, gachaId]);
  });

  it('resolves the member the usual way for a ranked pack, refuses below its rank, and answers null for nobody', async () => {
    const { services, changed } = servicesHearing();
    const ranked = await createPublishedPack(handle.db, { lots: 20, price: 100, minRank: 2 });
    const member = await memberWithCoins(1_000);
    let resolved = 0;
    const drawer = {
      sessionToken: member.sessionToken,
      resolveMember: async () => (resolved++, { id: member.id }),
    };
    expect(
      await drawForMember(services, drawer, { gachaId: ranked, count: 1, idempotencyKey: 'api:ranked' }),
    ).toMatchObject({
      ok: false,
      code: 'RANK_TOO_LOW',
    });
    expect(resolved).toBe(1);
    const nobody = { sessionToken: randomUUID(), resolveMember: async () => null };
    expect(
      await drawForMember(services, nobody, { gachaId: ranked, count: 1, idempotencyKey: 'api:nobody' }),
    ).toBeNull();
    expect(changed).toEqual([]);
  });
});
