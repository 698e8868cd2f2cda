// Operators' coin adjustments of a member (docs/decisions/026): a ledger entry with a reason; above the
// approval threshold a second admin approves (or rejects) first. Each runs through runAdminAction.
import { asc, count, desc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid } from '#modules/kernel';
import { memberProfileOf } from '#modules/identity';
import { debitCoins, getBalance, grantCoins, type CoinKind, type CoinLifetimes } from '#modules/wallet';
import { auditTextDigest, runAdminAction, type Operator } from './audit';
import { coinAdjustments, type CoinAdjustmentStatus } from './schema';
import type { OperatorOutcome } from './operations';
import { ADJUSTMENT_REASON_MAX, memberTarget, refused, type CoinAdjustmentInput } from './members';

// ── Coin adjustments ────────────────────────────────────────────────────────────────────────────

export interface CoinAdjustmentView {
  id: string;
  memberId: string;
  kind: CoinKind;
  amount: number;
  reason: string;
  status: CoinAdjustmentStatus;
  requestedBy: string | null;
  requestedLabel: string;
  requestedAt: string;
  decidedLabel: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
}

const toView = (row: typeof coinAdjustments.$inferSelect): CoinAdjustmentView => ({
  id: row.id,
  memberId: row.memberId,
  kind: row.kind,
  amount: row.amount,
  reason: row.reason,
  status: row.status,
  requestedBy: row.requestedBy,
  requestedLabel: row.requestedLabel,
  requestedAt: row.requestedAt.toISOString(),
  decidedLabel: row.decidedLabel,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decisionNote: row.decisionNote,
});

/** The settings an adjustment needs: the approval threshold and the coins' lifetimes. */
export interface CoinAdjustmentRules {
  /** COIN_ADJUSTMENT_APPROVAL_THRESHOLD: above this many coins (either sign) a second admin approves first. */
  approvalThreshold: number;
  lifetimes: CoinLifetimes;
}

/** The ledger entry of an adjustment (key `adjust:<id>`), in the caller's transaction; a shortfall refuses. */
async function applyAdjustment(tx: Database, row: typeof coinAdjustments.$inferSelect, lifetimes: CoinLifetimes) {
  const before = await getBalance(tx, row.memberId);
  const entry = {
    memberId: row.memberId,
    kind: row.kind,
    reason: 'adjustment',
    counterAccount: 'adjustment',
    idempotencyKey: `adjust:${row.id}`,
    ref: row.id,
    memo: row.reason,
  };
  if (row.amount > 0) {
    const granted = await grantCoins(tx, { ...entry, amount: row.amount, lifetimeDays: lifetimes });
    return { before: { paid: before.paid, free: before.free }, after: { paid: granted.paid, free: granted.free } };
  }
  const debited = await debitCoins(tx, { ...entry, amount: -row.amount });
  if (!debited.ok)
    return refused('ADJUSTMENT_EXCEEDS_BALANCE', {
      kind: row.kind,
      amount: -row.amount,
      balance: (debited.details as { balance?: number }).balance ?? 0,
    });
  return { before: { paid: before.paid, free: before.free }, after: { paid: debited.paid, free: debited.free } };
}

/** Whether a debit of `amount` (negative) fits the member's balance of that kind now. */
async function checkDebitFits(tx: Database, memberId: string, kind: CoinKind, amount: number) {
  if (amount >= 0) return;
  const balance = await getBalance(tx, memberId);
  const have = kind === 'paid' ? balance.paid : balance.free;
  if (have < -amount) refused('ADJUSTMENT_EXCEEDS_BALANCE', { kind, amount: -amount, balance: have });
}

/**
 * Adjusts a member's coins with a reason (`coins:grant`). Up to the threshold it is applied at once
 * (`coins.adjust`); above it, it waits as a pending request (`coins.adjust.request`) for another
 * admin. A negative adjustment never makes a balance negative (ADJUSTMENT_EXCEEDS_BALANCE). The form's
 * key makes a double submit one adjustment: a repeat answers the first with `replay` and records nothing.
 * @example await adjustCoinsAsOperator(db, operator, memberId, { kind: 'free', amount: -300, reason: '誤付与の取消', key }, rules)
 */
export async function adjustCoinsAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  input: CoinAdjustmentInput,
  rules: CoinAdjustmentRules,
): Promise<OperatorOutcome<{ adjustment: CoinAdjustmentView; replay: boolean }>> {
  return runAdminAction<{ adjustment: CoinAdjustmentView; replay: boolean }>(
    db,
    operator,
    'coins:grant',
    async (tx) => {
      const profile = await memberProfileOf(tx, memberId);
      if (!profile) return refused('MEMBER_NOT_FOUND', { memberId });
      if (profile.deleted) return refused('MEMBER_DELETED');
      if (operator.memberId === memberId) return refused('MEMBER_SELF_ACTION');
      const requestKey = `${operator.memberId ?? operator.label}:${input.key}`;
      const pending = Math.abs(input.amount) > rules.approvalThreshold;
      const [inserted] = await tx
        .insert(coinAdjustments)
        .values({
          requestKey,
          memberId,
          kind: input.kind,
          amount: input.amount,
          reason: input.reason,
          status: pending ? 'pending' : 'applied',
          requestedBy: operator.memberId,
          requestedLabel: operator.label,
          ...(pending ? {} : { decidedBy: operator.memberId, decidedLabel: operator.label, decidedAt: new Date() }),
        })
        .onConflictDoNothing({ target: coinAdjustments.requestKey })
        .returning();
      if (!inserted) {
        const [first] = await tx.select().from(coinAdjustments).where(eq(coinAdjustments.requestKey, requestKey));
        if (!first || first.memberId !== memberId || first.kind !== input.kind || first.amount !== input.amount)
          return refused('ADJUSTMENT_KEY_REUSED');
        return { value: { adjustment: toView(first), replay: true }, audit: [] };
      }
      const target = memberTarget(memberId);
      // The reason is shown to the member as the ledger memo and kept there and on the adjustment (accounting
      // law); the append-only log keeps its digest, as staff may write about the member (decision 053).
      const facts = {
        adjustmentId: inserted.id,
        kind: input.kind,
        amount: input.amount,
        reason: auditTextDigest(input.reason),
      };
      if (pending) {
        await checkDebitFits(tx, memberId, input.kind, input.amount);
        return {
          value: { adjustment: toView(inserted), replay: false },
          audit: {
            action: 'coins.adjust.request',
            target,
            after: { ...facts, status: 'pending', threshold: rules.approvalThreshold },
          },
        };
      }
      const applied = await applyAdjustment(tx, inserted, rules.lifetimes);
      return {
        value: { adjustment: toView(inserted), replay: false },
        audit: { action: 'coins.adjust', target, before: applied.before, after: { ...applied.after, ...facts } },
      };
    },
  );
}

/** The pending request under its row lock, or a refusal; only another admin decides it. */
async function pendingForDecision(tx: Database, operator: Operator, adjustmentId: string) {
  if (operator.role !== 'admin' || !operator.memberId) return refused('ADJUSTMENT_APPROVER_NOT_ADMIN');
  if (!isUuid(adjustmentId)) return refused('ADJUSTMENT_NOT_FOUND');
  const [row] = await tx.select().from(coinAdjustments).where(eq(coinAdjustments.id, adjustmentId)).for('update');
  if (!row) return refused('ADJUSTMENT_NOT_FOUND');
  if (row.status !== 'pending') return refused('ADJUSTMENT_NOT_PENDING', { status: row.status });
  if (row.requestedBy === operator.memberId) return refused('ADJUSTMENT_SELF_APPROVAL');
  return row;
}

/**
 * Approves a pending adjustment and applies it (`coins.adjust.approve` and `coins.adjust`), once:
 * the request row is locked, so of two admins approving at once the second finds it decided
 * (ADJUSTMENT_NOT_PENDING); the ledger key `adjust:<id>` would refuse a second entry anyway. Only an
 * admin other than the requester approves. A debit that no longer fits the balance is refused and
 * stays pending (reject it, or approve once the balance allows).
 * @example await approveCoinAdjustment(db, admin, adjustmentId, rules)
 */
export async function approveCoinAdjustment(
  db: Database,
  operator: Operator,
  adjustmentId: string,
  rules: Pick<CoinAdjustmentRules, 'lifetimes'>,
): Promise<OperatorOutcome<CoinAdjustmentView>> {
  return runAdminAction(db, operator, 'coins:grant', async (tx) => {
    const row = await pendingForDecision(tx, operator, adjustmentId);
    const applied = await applyAdjustment(tx, row, rules.lifetimes);
    const [saved] = await tx
      .update(coinAdjustments)
      .set({ status: 'applied', decidedBy: operator.memberId, decidedLabel: operator.label, decidedAt: new Date() })
      .where(eq(coinAdjustments.id, row.id))
      .returning();
    const target = memberTarget(row.memberId);
    const facts = { adjustmentId: row.id, kind: row.kind, amount: row.amount, reason: auditTextDigest(row.reason) };
    return {
      value: toView(saved!),
      audit: [
        {
          action: 'coins.adjust.approve',
          target,
          before: { status: 'pending', requestedBy: row.requestedLabel },
          after: { ...facts, status: 'applied' },
        },
        { action: 'coins.adjust', target, before: applied.before, after: { ...applied.after, ...facts } },
      ],
    };
  });
}

/**
 * Rejects a pending adjustment (`coins.adjust.reject`): nothing moves. Only an admin other than the
 * requester decides; the note (optional) says why.
 * @example await rejectCoinAdjustment(db, admin, adjustmentId, '根拠が確認できないため')
 */
export async function rejectCoinAdjustment(
  db: Database,
  operator: Operator,
  adjustmentId: string,
  note: string,
): Promise<OperatorOutcome<CoinAdjustmentView>> {
  return runAdminAction(db, operator, 'coins:grant', async (tx) => {
    const row = await pendingForDecision(tx, operator, adjustmentId);
    const decisionNote = note.trim().slice(0, ADJUSTMENT_REASON_MAX) || null;
    const [saved] = await tx
      .update(coinAdjustments)
      .set({
        status: 'rejected',
        decidedBy: operator.memberId,
        decidedLabel: operator.label,
        decidedAt: new Date(),
        decisionNote,
      })
      .where(eq(coinAdjustments.id, row.id))
      .returning();
    return {
      value: toView(saved!),
      audit: {
        action: 'coins.adjust.reject',
        target: memberTarget(row.memberId),
        before: { status: 'pending', requestedBy: row.requestedLabel },
        after: {
          adjustmentId: row.id,
          kind: row.kind,
          amount: row.amount,
          status: 'rejected',
          note: auditTextDigest(decisionNote),
        },
      },
    };
  });
}

/** Pending adjustments, oldest first (the approvals page), at most `limit`. */
export async function listPendingCoinAdjustments(db: Database, limit: number): Promise<CoinAdjustmentView[]> {
  const rows = await db
    .select()
    .from(coinAdjustments)
    .where(eq(coinAdjustments.status, 'pending'))
    .orderBy(asc(coinAdjustments.requestedAt))
    .limit(limit);
  return rows.map(toView);
}

/** A member's adjustments, newest first, at most `limit`. */
export async function listCoinAdjustmentsOf(
  db: Database,
  memberId: string,
  limit: number,
): Promise<CoinAdjustmentView[]> {
  const rows = await db
    .select()
    .from(coinAdjustments)
    .where(eq(coinAdjustments.memberId, memberId))
    .orderBy(desc(coinAdjustments.requestedAt))
    .limit(limit);
  return rows.map(toView);
}

/** How many adjustments wait for approval (the approvals page's heading). */
export async function countPendingCoinAdjustments(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(coinAdjustments).where(eq(coinAdjustments.status, 'pending'));
  return Number(row?.n ?? 0);
}
