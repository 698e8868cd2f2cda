// A restricted member's statement (issue 34 item 6, decision 084), one read for the member's page
// (/mypage/standing, a held member's session) and a banned member's statement link (/standing/:token): the
// restrictions they are told of (category, dates, the appeal and its outcome), the coins they hold (paid and
// free) and their prizes still at the shop (undecided, kept, being shipped) with their conversion value.
import type { Database } from '#db/client';
import { listPrizes, prizeHoldingsOf } from '#modules/draw';
import {
  restrictionsShownTo,
  type AppealOutcome,
  type RestrictionCategory,
  type RestrictionKind,
} from '#modules/identity';
import { purchaseHoldOf } from '#modules/payments';
import { appealReferencesOf } from '#modules/support';
import { getBalance } from '#modules/wallet';

/** The most prize lines a statement lists (the counts and the value cover all). */
export const STATEMENT_PRIZE_LINES = 100;

export interface StatementRestriction {
  /** Null for a chargeback's hold, which is no operator's restriction: it is answered on the contact desk. */
  id: string | null;
  kind: RestrictionKind;
  category: RestrictionCategory;
  startedAt: string | null;
  until: string | null;
  /** When it was lifted (by hand, on appeal, or by a ban's end); null while it holds. */
  endedAt: string | null;
  inForce: boolean;
  appealUntil: string | null;
  /** Whether the member may send an appeal now (in force, in the window, none sent). */
  canAppeal: boolean;
  appeal: {
    reference: string | null;
    at: string;
    outcome: AppealOutcome | null;
    statement: string | null;
    decidedAt: string | null;
  } | null;
}

export interface MemberStatement {
  restrictions: StatementRestriction[];
  coins: { paid: number; free: number };
  prizes: {
    counts: { pending: number; kept: number; shipping: number };
    value: number;
    lines: { name: string; tierLabel: string; status: 'pending' | 'kept' | 'shipping'; conversionValue: number }[];
    more: number;
  };
}

/**
 * @example const statement = await memberStatementOf(db, memberId)
 */
export async function memberStatementOf(db: Database, memberId: string, now = new Date()): Promise<MemberStatement> {
  const [shown, hold, balance, prizes, holdings] = await Promise.all([
    restrictionsShownTo(db, memberId, now),
    purchaseHoldOf(db, memberId),
    getBalance(db, memberId, now),
    listPrizes(db, memberId, { status: ['pending', 'kept', 'shipping'], limit: STATEMENT_PRIZE_LINES }),
    prizeHoldingsOf(db, memberId),
  ]);
  const references = await appealReferencesOf(
    db,
    shown.flatMap((r) => (r.appeal ? [r.appeal.inquiryId] : [])),
  );
  const restrictions: StatementRestriction[] = shown.map((r) => ({
    id: r.id,
    kind: r.kind,
    category: r.category,
    startedAt: r.startedAt.toISOString(),
    until: r.until?.toISOString() ?? null,
    endedAt: r.inForce ? null : ((r.endedAt ?? r.until)?.toISOString() ?? null),
    inForce: r.inForce,
    appealUntil: r.appealUntil.toISOString(),
    canAppeal: r.inForce && !r.appeal && now.getTime() <= r.appealUntil.getTime(),
    appeal: r.appeal
      ? {
          reference: references.get(r.appeal.inquiryId) ?? null,
          at: r.appeal.at.toISOString(),
          outcome: r.appeal.outcome,
          statement: r.appeal.statement,
          decidedAt: r.appeal.decidedAt?.toISOString() ?? null,
        }
      : null,
  }));
  // A chargeback's hold is the payment provider's, not an operator's: told with its category, answered on the desk.
  if (hold?.reason === 'chargeback' && !restrictions.some((r) => r.kind === 'hold' && r.inForce))
    restrictions.push({
      id: null,
      kind: 'hold',
      category: 'payment_dispute',
      startedAt: hold.since?.toISOString() ?? null,
      until: null,
      endedAt: null,
      inForce: true,
      appealUntil: null,
      canAppeal: false,
      appeal: null,
    });
  const { counts, value } = holdings;
  return {
    restrictions,
    coins: { paid: balance.paid, free: balance.free },
    prizes: {
      counts,
      value,
      lines: prizes.items.map((p) => ({
        name: p.cardName,
        tierLabel: p.tierLabel,
        status: p.status as 'pending' | 'kept' | 'shipping',
        conversionValue: p.conversionValue,
      })),
      more: Math.max(0, counts.pending + counts.kept + counts.shipping - prizes.items.length),
    },
  };
}
