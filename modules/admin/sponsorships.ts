// The operator's sponsored-account actions (decision 083; 景品表示法's ステマ rule): mark a member as a streamer
// or affiliate the shop has a deal with, and end it, each audited in the same transaction (members:write).
import type { Database } from '#db/client';
import { endSponsorship, startSponsorship, type SponsorshipKind } from '#modules/identity';
import { runAdminAction, type Operator } from './audit';
import { memberTarget, targetOf } from './members';
import type { OperatorOutcome } from './operations';

/**
 * Starts a member's sponsorship (`member.sponsorship.start`): from now, their wins in the winners feed, their
 * lines in rankings and their share texts carry 「PR」. A member already sponsored keeps theirs (started false,
 * nothing recorded).
 * @example await startSponsorshipAsOperator(db, operator, memberId, 'streamer')
 */
export async function startSponsorshipAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  kind: SponsorshipKind,
): Promise<OperatorOutcome<{ started: boolean }>> {
  return runAdminAction<{ started: boolean }>(db, operator, 'members:write', async (tx) => {
    await targetOf(tx, operator, memberId);
    const started = await startSponsorship(tx, memberId, kind);
    return {
      value: { started },
      audit: started
        ? { action: 'member.sponsorship.start', target: memberTarget(memberId), before: null, after: { kind } }
        : [],
    };
  });
}

/**
 * Ends a member's sponsorship now (`member.sponsorship.end`): what they did while it lasted stays labelled.
 * A member without one records nothing (ended false).
 * @example await endSponsorshipAsOperator(db, operator, memberId)
 */
export async function endSponsorshipAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
): Promise<OperatorOutcome<{ ended: boolean }>> {
  return runAdminAction<{ ended: boolean }>(db, operator, 'members:write', async (tx) => {
    await targetOf(tx, operator, memberId);
    const ended = await endSponsorship(tx, memberId);
    return {
      value: { ended: ended !== null },
      audit: ended
        ? {
            action: 'member.sponsorship.end',
            target: memberTarget(memberId),
            before: { kind: ended.kind, startedAt: ended.startedAt.toISOString() },
            after: { endedAt: ended.endedAt!.toISOString() },
          }
        : [],
    };
  });
}
