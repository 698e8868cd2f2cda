// Reading and deciding the fraud signals (docs/decisions/029). A decision (clear, hold, ban) runs
// through runAdminAction with members:write; hold and ban call the member console's own actions
// inside that same transaction, so the signal's status, the hold or ban and every audit entry commit
// together or not at all.
import { and, count, desc, eq, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { RefusalError, refuse } from '#modules/kernel';
import {
  BAN_REASON_MAX,
  auditTextDigest,
  banMemberAsOperator,
  holdMemberAsOperator,
  memberBanSchema,
  runAdminAction,
  type Operator,
} from '#modules/admin';
import { restrictionCategories, type RestrictionCategory } from '#modules/identity';
import type { SiteIdentity } from '#modules/messaging';
import { fraudSignals, signalKinds, signalStatuses, type SignalKind, type SignalStatus } from './schema';

/** The refusals of the signals list (words in refusal-words.ts). */
export const RISK_REFUSAL_CODES = ['SIGNAL_NOT_FOUND', 'SIGNAL_ALREADY_DECIDED'] as const;
export type RiskRefusalCode = (typeof RISK_REFUSAL_CODES)[number];

const refused = (code: RiskRefusalCode, details: Record<string, unknown> = {}): never => {
  throw new RefusalError(refuse(code, details));
};

export interface FraudSignal {
  id: number;
  kind: SignalKind;
  memberId: string;
  key: string;
  evidence: Record<string, unknown>;
  firstSeen: string;
  lastSeen: string;
  status: SignalStatus;
  decidedLabel: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
}

const toSignal = (row: typeof fraudSignals.$inferSelect): FraudSignal => ({
  id: row.id,
  kind: row.kind,
  memberId: row.memberId,
  key: row.key,
  evidence: (row.evidence ?? {}) as Record<string, unknown>,
  firstSeen: row.firstSeen.toISOString(),
  lastSeen: row.lastSeen.toISOString(),
  status: row.status,
  decidedLabel: row.decidedLabel,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decisionNote: row.decisionNote,
});

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(values, { error: message }).optional());

/** The list's filters (the page's query string). */
export const signalFilterSchema = z.object({
  kind: optionalEnum(signalKinds, '種類を一覧から選んでください。'),
  status: optionalEnum(signalStatuses, '状態を一覧から選んでください。'),
  before: z.coerce.number().int().positive().optional().catch(undefined),
});
export type SignalFilter = z.output<typeof signalFilterSchema>;

/**
 * A page of signals, newest first (by id), and the cursor of the next page.
 * @example await listSignals(db, { status: 'open' }, 50)
 */
export async function listSignals(
  db: Database,
  filter: SignalFilter & { memberId?: string },
  pageSize: number,
): Promise<{ items: FraudSignal[]; nextBefore: number | null }> {
  const where: SQL[] = [];
  if (filter.kind) where.push(eq(fraudSignals.kind, filter.kind));
  if (filter.status) where.push(eq(fraudSignals.status, filter.status));
  if (filter.memberId) where.push(eq(fraudSignals.memberId, filter.memberId));
  if (filter.before) where.push(lt(fraudSignals.id, filter.before));
  const rows = await db
    .select()
    .from(fraudSignals)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(fraudSignals.id))
    .limit(pageSize + 1);
  const items = rows.slice(0, pageSize).map(toSignal);
  return { items, nextBefore: rows.length > pageSize ? (items.at(-1)?.id ?? null) : null };
}

/** How many signals wait for a decision (the admin home's task). */
export async function countOpenSignals(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(fraudSignals).where(eq(fraudSignals.status, 'open'));
  return Number(row?.n ?? 0);
}

export const signalDecisions = ['clear', 'hold', 'ban'] as const;
export type SignalDecision = (typeof signalDecisions)[number];

const STATUS_OF: Record<SignalDecision, SignalStatus> = { clear: 'cleared', hold: 'held', ban: 'banned' };

/** The decision form: what, why (required for hold and ban), and a ban's last day (optional). */
export const signalDecisionSchema = z
  .object({
    decision: z.enum(signalDecisions, { error: '判断（問題なし・購入停止・利用停止）を選んでください。' }),
    /** The category the member is told (empty: the signal's own, CATEGORY_OF_SIGNAL). */
    category: z.enum(restrictionCategories, { error: '会員に伝える理由の区分を選び直してください。' }).optional(),
    note: z
      .string()
      .trim()
      .max(BAN_REASON_MAX, { error: `理由は${BAN_REASON_MAX}文字以内で入力してください。` })
      .optional()
      .default(''),
    until: z.string().trim().optional(),
  })
  .superRefine((value, context) => {
    if (value.decision !== 'clear' && !value.note)
      context.addIssue({
        code: 'custom',
        path: ['note'],
        message:
          value.decision === 'ban' ? '利用停止の理由を入力してください。' : '購入・発送停止の理由を入力してください。',
      });
  })
  .transform((value, context) => {
    const category = value.category;
    if (value.decision !== 'ban') return { decision: value.decision, note: value.note, banExpires: null, category };
    // Only the last day is read here; the category is checked above.
    const ban = memberBanSchema.safeParse({ category: 'terms_other', reason: value.note || '-', until: value.until });
    if (!ban.success) {
      context.addIssue({
        code: 'custom',
        path: ['until'],
        message: ban.error.issues[0]?.message ?? '期限を確認してください。',
      });
      return z.NEVER;
    }
    return { decision: value.decision, note: value.note, banExpires: ban.data.until, category };
  });
/** The parsed decision; the category may be left out (the signal's own is told). */
export type SignalDecisionInput =
  z.output<typeof signalDecisionSchema> extends infer T
    ? T extends unknown
      ? Omit<T, 'category'> & { category?: RestrictionCategory }
      : never
    : never;

/** The reason category a member held or banned on a signal is told, unless the operator chooses another. */
export const CATEGORY_OF_SIGNAL: Readonly<Record<SignalKind, RestrictionCategory>> = {
  shared_device: 'multiple_accounts',
  shared_address: 'multiple_accounts',
  shared_phone: 'multiple_accounts',
  velocity_draws: 'automation',
  velocity_spend: 'identity_check',
  chargeback: 'payment_dispute',
};

/**
 * Decides a signal (`signal.decide`, members:write): clear it, or hold (member.hold) or ban
 * (member.ban) the member, all in one transaction. An open or held signal may be decided; a cleared or
 * banned one is final (SIGNAL_ALREADY_DECIDED). A refused hold or ban (the operator's own account, a
 * staff account) leaves the signal as it was.
 * @example await decideSignalAsOperator(db, operator, 12, { decision: 'hold', note: '同一住所の複数アカウント', banExpires: null }, site)
 */
export async function decideSignalAsOperator(
  db: Database,
  operator: Operator,
  signalId: number,
  input: SignalDecisionInput,
  site: SiteIdentity,
) {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    if (!Number.isSafeInteger(signalId) || signalId <= 0) return refused('SIGNAL_NOT_FOUND');
    const [row] = await tx.select().from(fraudSignals).where(eq(fraudSignals.id, signalId)).for('update');
    if (!row) return refused('SIGNAL_NOT_FOUND', { signalId });
    if (row.status === 'cleared' || row.status === 'banned' || (row.status === 'held' && input.decision === 'hold'))
      return refused('SIGNAL_ALREADY_DECIDED', { status: row.status });
    // The member console's actions, in this transaction (a savepoint): their own audit entries join ours.
    const notice = { category: input.category ?? CATEGORY_OF_SIGNAL[row.kind], site };
    if (input.decision === 'hold') {
      const held = await holdMemberAsOperator(tx, operator, row.memberId, input.note, notice);
      if (!held.ok) throw new RefusalError(held);
    } else if (input.decision === 'ban') {
      const banned = await banMemberAsOperator(tx, operator, row.memberId, {
        reason: input.note,
        expiresAt: input.banExpires,
        ...notice,
      });
      if (!banned.ok) throw new RefusalError(banned);
    }
    const status = STATUS_OF[input.decision];
    const [saved] = await tx
      .update(fraudSignals)
      .set({
        status,
        decidedBy: operator.memberId,
        decidedLabel: operator.label,
        decidedAt: new Date(),
        decisionNote: input.note || null,
      })
      .where(eq(fraudSignals.id, row.id))
      .returning();
    return {
      value: toSignal(saved!),
      audit: {
        action: 'signal.decide',
        target: { type: 'fraud_signal', id: String(row.id) },
        before: { status: row.status },
        // The note stays on the signal; the append-only log keeps its digest (decision 053).
        after: {
          status,
          decision: input.decision,
          memberId: row.memberId,
          kind: row.kind,
          note: auditTextDigest(input.note || null),
        },
      },
    };
  });
}
