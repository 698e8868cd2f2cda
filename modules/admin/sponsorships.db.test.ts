// Sponsored accounts on a real database (decision 083; 景品表示法's ステマ rule): the operator starts and ends a
// member's sponsorship, each with its audit entry in the same transaction; the winners feed labels 「PR」 the wins
// made while it lasted, and only those — ending it keeps the label on what was done during it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES, createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { adminAuditLog } from '#db/schema';
import { currentSponsorship, sponsorshipSpans } from '#modules/identity';
import { drawLots, listWins, recordWins } from '#modules/draw';
import { commandLineOperator, endSponsorshipAsOperator, startSponsorshipAsOperator } from '#modules/admin';

const handle = useTestDatabase('admin-sponsorships');
const operator = commandLineOperator();

const auditOf = async (memberId: string) =>
  (
    await handle.db
      .select({ action: adminAuditLog.action, before: adminAuditLog.before, after: adminAuditLog.after })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetType, 'member'), eq(adminAuditLog.targetId, memberId)))
      .orderBy(asc(adminAuditLog.id))
  ).filter((e) => e.action.startsWith('member.sponsorship'));

async function draw(memberId: string, gachaId: string) {
  const outcome = await drawLots(handle.db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count: 1,
    idempotencyKey: randomUUID(),
  });
  if (!outcome.ok) throw new Error(`draw refused: ${outcome.code}`);
}

describe('sponsored accounts', () => {
  it('starts and ends a sponsorship with its audit entry, once each', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, { paid: 0 });
    expect(await startSponsorshipAsOperator(db, operator, member, 'streamer')).toMatchObject({
      ok: true,
      value: { started: true },
    });
    // A second start keeps the first (its kind unchanged) and records nothing.
    expect(await startSponsorshipAsOperator(db, operator, member, 'affiliate')).toMatchObject({
      ok: true,
      value: { started: false },
    });
    expect((await currentSponsorship(db, member))?.kind).toBe('streamer');
    expect(await endSponsorshipAsOperator(db, operator, member)).toMatchObject({ ok: true, value: { ended: true } });
    expect(await endSponsorshipAsOperator(db, operator, member)).toMatchObject({ ok: true, value: { ended: false } });
    expect(await currentSponsorship(db, member)).toBeNull();
    const audit = await auditOf(member);
    expect(audit.map((e) => e.action)).toEqual(['member.sponsorship.start', 'member.sponsorship.end']);
    expect(audit[0]!.after).toEqual({ kind: 'streamer' });
    expect(audit[1]!.before).toMatchObject({ kind: 'streamer' });
    // The history stays: a later sponsorship is a second span.
    await startSponsorshipAsOperator(db, operator, member, 'affiliate');
    expect((await sponsorshipSpans(db, [member])).get(member)!.map((s) => [s.kind, s.endedAt === null])).toEqual([
      ['streamer', false],
      ['affiliate', true],
    ]);
  });

  it('refuses an unknown member with a clear refusal and records nothing', async () => {
    const ghost = `ghost-${randomUUID()}`;
    expect(await startSponsorshipAsOperator(handle.db, operator, ghost, 'streamer')).toMatchObject({
      ok: false,
      code: 'MEMBER_NOT_FOUND',
    });
    expect(await auditOf(ghost)).toEqual([]);
  });

  it('labels 「PR」 the wins made while sponsored, and keeps it on them after the sponsorship ends', async () => {
    const db = handle.db;
    // Every lot is top (S賞 and the ラストワン賞 above the threshold): each draw is a feed entry.
    const pack = await createPublishedPack(db, { drawOptions: [1], lots: 4, price: 200, lastOne: true });
    const streamer = await createMemberWithCoins(db, { paid: 100_000 });
    const other = await createMemberWithCoins(db, { paid: 100_000 });
    const since = new Date(Date.now() - 60_000);
    await startSponsorshipAsOperator(db, operator, streamer, 'streamer');
    for (let i = 0; i < 4; i++) await draw(i < 2 ? streamer : other, pack);
    await recordWins(db, pack, { highlightCoins: 0, since });
    const before = await listWins(db, { gachaId: pack, limit: 10 });
    const labelled = (items: typeof before.items) => items.map((e) => e.sponsored);
    // Newest first: the other member's draws (and their ラストワン賞), then the streamer's two, labelled.
    const n = before.items.length;
    expect(n).toBeGreaterThanOrEqual(4);
    expect(labelled(before.items)).toEqual([...Array<boolean>(n - 2).fill(false), true, true]);
    await endSponsorshipAsOperator(db, operator, streamer);
    expect(labelled((await listWins(db, { gachaId: pack, limit: 10 })).items)).toEqual(labelled(before.items));
  });
});
