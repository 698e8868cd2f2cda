// The operators' actions on a member (docs/decisions/026): coin adjustments (a ledger entry with a
// reason; above the approval threshold a second admin approves first), ban and unban, signing the
// member out everywhere, the operator's purchase hold, and staff notes. Each runs through
// runAdminAction: the change and its audit entry commit together or not at all. The admin pages and
// the command line call these same functions.
// Here: the rules, who may act on whom, ban, sessions, hold and notes; coin adjustments: coin-adjustments.ts.
import { and, desc, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import {
  banMember,
  closeRestriction,
  isStaffRole,
  memberProfileOf,
  restrictionCategories,
  revokeMemberSessions,
  unbanMember,
  type MemberProfile,
} from '#modules/identity';
import { placePurchaseHold, purchaseProfileOf } from '#modules/payments';
import { auditTextDigest, runAdminAction, type Operator } from './audit';
import { memberNotes } from './schema';
import type { OperatorOutcome } from './operations';
import { restrictAndTell, type RestrictionNotice } from './restrictions';

/** The refusals of the member console (words in refusal-words.ts). */
export const MEMBER_CONSOLE_REFUSAL_CODES = [
  'MEMBER_NOT_FOUND',
  'MEMBER_DELETED',
  'MEMBER_SELF_ACTION',
  'MEMBER_STAFF_PROTECTED',
  'ADJUSTMENT_NOT_FOUND',
  'ADJUSTMENT_NOT_PENDING',
  'ADJUSTMENT_SELF_APPROVAL',
  'ADJUSTMENT_APPROVER_NOT_ADMIN',
  'ADJUSTMENT_KEY_REUSED',
  'ADJUSTMENT_EXCEEDS_BALANCE',
  'RESTRICTION_NOT_FOUND',
  'APPEAL_NOT_OPEN',
  'APPEAL_SAME_OPERATOR',
] as const;
export type MemberConsoleRefusalCode = (typeof MEMBER_CONSOLE_REFUSAL_CODES)[number];

export const refused = (code: MemberConsoleRefusalCode, details: Record<string, unknown> = {}): never => {
  throw new RefusalError(refuse(code, details));
};

/** The most coins one adjustment moves (either sign). */
export const MAX_ADJUSTMENT_COINS = 10_000_000;
export const ADJUSTMENT_REASON_MAX = 200;
export const MEMBER_NOTE_MAX = 2000;
export const BAN_REASON_MAX = 500;

/** What staff type as a number: full-width digits, commas, and the minus signs of Japanese keyboards. */
const numberText = (value: unknown) =>
  typeof value === 'string'
    ? value
        .normalize('NFKC')
        .replace(/[\u2212\u2010-\u2015\u30fc]/g, '-')
        .replace(/[,\s]/g, '')
    : value;

/** The coin adjustment form (the page's action and any other caller alike). */
export const coinAdjustmentSchema = z.object({
  kind: z.enum(['paid', 'free'], { error: 'コインの種類（有償・無償）を選んでください。' }),
  amount: z.preprocess(
    numberText,
    z.coerce
      .number({ error: '枚数を整数で入力してください（減らすときは -500 のように）。' })
      .int({ error: '枚数を整数で入力してください（減らすときは -500 のように）。' })
      .min(-MAX_ADJUSTMENT_COINS, {
        error: `一度に調整できるのは${MAX_ADJUSTMENT_COINS.toLocaleString('ja-JP')}枚までです。`,
      })
      .max(MAX_ADJUSTMENT_COINS, {
        error: `一度に調整できるのは${MAX_ADJUSTMENT_COINS.toLocaleString('ja-JP')}枚までです。`,
      })
      .refine((n) => n !== 0, {
        error: '0枚の調整はできません。増やす枚数か、減らす枚数（-500 など）を入力してください。',
      }),
  ),
  reason: z
    .string({ error: '調整の理由を入力してください。' })
    .trim()
    .min(1, { error: '調整の理由を入力してください。' })
    .max(ADJUSTMENT_REASON_MAX, { error: `理由は${ADJUSTMENT_REASON_MAX}文字以内で入力してください。` }),
  /** The form's key (made when the page was shown): a double submit adjusts once. */
  key: z
    .string({ error: 'ページを読み込み直してからやり直してください。' })
    .regex(/^[A-Za-z0-9_-]{8,100}$/, { error: 'ページを読み込み直してからやり直してください。' }),
});
export type CoinAdjustmentInput = z.output<typeof coinAdjustmentSchema>;

export const memberNoteSchema = z.object({
  text: z
    .string({ error: 'メモを入力してください。' })
    .trim()
    .min(1, { error: 'メモを入力してください。' })
    .max(MEMBER_NOTE_MAX, { error: `メモは${MEMBER_NOTE_MAX.toLocaleString('ja-JP')}文字以内で入力してください。` }),
});

const ymd = /^\d{4}-\d{2}-\d{2}$/;

/** The reason category the member is told (the account policy's words; decision 084). */
const restrictionCategoryField = z.enum(restrictionCategories, { error: '会員に伝える理由の区分を選んでください。' });

/**
 * The ban form: the category the member reads, a reason (kept for staff) and an optional last day (JST;
 * empty: until lifted).
 */
export const memberBanSchema = z.object({
  category: restrictionCategoryField,
  reason: z
    .string({ error: '利用停止の理由を入力してください。' })
    .trim()
    .min(1, { error: '利用停止の理由を入力してください。' })
    .max(BAN_REASON_MAX, { error: `理由は${BAN_REASON_MAX}文字以内で入力してください。` }),
  until: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return null;
      const [y, m, d] = value.split('-').map(Number);
      const real = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 0));
      if (!ymd.test(value) || real.toISOString().slice(0, 10) !== value) {
        context.addIssue({ code: 'custom', message: '期限は 2027-05-10 の形で入力してください（空欄は無期限）。' });
        return z.NEVER;
      }
      // The ban ends at the end of that day in Japan.
      const expires = new Date(new Date(`${value}T00:00:00+09:00`).getTime() + 86_400_000);
      if (expires.getTime() <= Date.now()) {
        context.addIssue({ code: 'custom', message: '期限には今日以降の日付を入力してください（空欄は無期限）。' });
        return z.NEVER;
      }
      return expires;
    }),
});

export const memberHoldSchema = z.object({
  category: restrictionCategoryField,
  reason: z
    .string({ error: '購入・発送停止の理由を入力してください。' })
    .trim()
    .min(1, { error: '購入・発送停止の理由を入力してください。' })
    .max(BAN_REASON_MAX, { error: `理由は${BAN_REASON_MAX}文字以内で入力してください。` }),
});

// ── Who may act on whom ─────────────────────────────────────────────────────────────────────────

/**
 * The member an action targets, or a refusal: it must exist and not be deleted; nobody acts on their
 * own account; only an admin (or the command line) acts on a staff account.
 */
export async function targetOf(tx: Database, operator: Operator, memberId: string): Promise<MemberProfile> {
  const profile = await memberProfileOf(tx, memberId);
  if (!profile) return refused('MEMBER_NOT_FOUND', { memberId });
  if (profile.deleted) return refused('MEMBER_DELETED');
  if (operator.memberId === memberId) return refused('MEMBER_SELF_ACTION');
  if (isStaffRole(profile.role) && operator.role === 'staff') return refused('MEMBER_STAFF_PROTECTED');
  return profile;
}

export const memberTarget = (memberId: string) => ({ type: 'member', id: memberId });

/** A ban as the audit log keeps it: its reason as a digest (staff's words about the member; decision 053). */
const banForAudit = (ban: { banReason: string | null }) => ({ ...ban, banReason: auditTextDigest(ban.banReason) });

// ── Ban, unban, sessions, hold ──────────────────────────────────────────────────────────────────

/**
 * Bans a member (`member.ban`): sign-in is refused (「利用停止中」) and every session ends, at once. The
 * member is mailed the reason category and a statement link (restrictions.ts), in the same transaction.
 * Nobody bans themselves; only an admin bans a staff account; a deleted member cannot be changed.
 * @example await banMemberAsOperator(db, operator, memberId, { reason: '不正利用', expiresAt: null, category: 'automation', site })
 */
export async function banMemberAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  input: { reason: string; expiresAt: Date | null } & RestrictionNotice,
): Promise<OperatorOutcome<{ sessionsRevoked: number }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    await targetOf(tx, operator, memberId);
    const banned = (await banMember(tx, memberId, { reason: input.reason, expiresAt: input.expiresAt }))!;
    const restriction = await restrictAndTell(tx, operator, memberId, 'ban', input, input.expiresAt);
    return {
      value: { sessionsRevoked: banned.sessionsRevoked },
      audit: {
        action: 'member.ban',
        target: memberTarget(memberId),
        before: banForAudit(banned.before),
        after: {
          banned: true,
          banReason: auditTextDigest(input.reason),
          banExpires: input.expiresAt?.toISOString() ?? null,
          sessionsRevoked: banned.sessionsRevoked,
          category: input.category,
          restrictionId: restriction.id,
        },
      },
    };
  });
}

/** Lifts a ban (`member.unban`); a member who is not banned records nothing. */
export async function unbanMemberAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
): Promise<OperatorOutcome<{ lifted: boolean }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    await targetOf(tx, operator, memberId);
    const { before } = (await unbanMember(tx, memberId))!;
    await closeRestriction(tx, memberId, 'ban', operator.memberId ?? operator.label);
    return {
      value: { lifted: before.banned },
      audit: before.banned
        ? {
            action: 'member.unban',
            target: memberTarget(memberId),
            before: banForAudit(before),
            after: { banned: false },
          }
        : [],
    };
  });
}

/** Signs a member out on every device (`member.sessions.revoke`), with how many sessions ended. */
export async function revokeMemberSessionsAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
): Promise<OperatorOutcome<{ sessionsRevoked: number }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    await targetOf(tx, operator, memberId);
    const sessionsRevoked = await revokeMemberSessions(tx, memberId);
    return {
      value: { sessionsRevoked },
      audit: { action: 'member.sessions.revoke', target: memberTarget(memberId), after: { sessionsRevoked } },
    };
  });
}

/** How a hold's reason opens the staff note that keeps it (the member page strips it again). */
export const HOLD_NOTE_PREFIX = '購入保留の理由: ';

/**
 * The reason of the operator's hold recorded by a `member.hold` entry: the staff note the entry names
 * (prefix stripped), or the text itself in entries written before decision 053's amendment; null without.
 * @example const reason = await holdReasonOf(db, memberId, entry.after)
 */
export async function holdReasonOf(db: Database, memberId: string, after: unknown): Promise<string | null> {
  const recorded = (after ?? {}) as { reason?: unknown; noteId?: unknown };
  if (typeof recorded.reason === 'string') return recorded.reason;
  if (typeof recorded.noteId !== 'number') return null;
  const [note] = await db
    .select({ text: memberNotes.text })
    .from(memberNotes)
    .where(and(eq(memberNotes.id, recorded.noteId), eq(memberNotes.memberId, memberId)));
  if (!note) return null;
  return note.text.startsWith(HOLD_NOTE_PREFIX) ? note.text.slice(HOLD_NOTE_PREFIX.length) : note.text;
}

/**
 * Puts a member's purchases and shipping requests on hold (`member.hold`): the member reads
 * 「アカウントの確認が必要なため…」 where they would buy or ship; the operator's reason is kept as a staff
 * note (「購入保留の理由: …」) and the entry names it. A hold already there (a chargeback's) stays and records nothing. Lifted by
 * clearPurchaseHoldAsOperator (`members:clear-hold`).
 * The member is mailed the reason category and where to read the statement (restrictions.ts).
 * @example await holdMemberAsOperator(db, operator, memberId, '本人確認中', { category: 'identity_check', site })
 */
export async function holdMemberAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  reason: string,
  notice: RestrictionNotice,
): Promise<OperatorOutcome<{ placed: boolean }>> {
  return runAdminAction<{ placed: boolean }>(db, operator, 'members:write', async (tx) => {
    await targetOf(tx, operator, memberId);
    const before = await purchaseProfileOf(tx, memberId);
    const placed = await placePurchaseHold(tx, memberId);
    if (!placed) return { value: { placed }, audit: [] };
    const restriction = await restrictAndTell(tx, operator, memberId, 'hold', notice, null);
    // The reason's own row is a staff note (退会 redacts it; the member page reads it from there); the
    // append-only log keeps its digest and the note's id (decision 053).
    const [note] = await tx
      .insert(memberNotes)
      .values({
        memberId,
        authorId: operator.memberId,
        authorLabel: operator.label,
        text: `${HOLD_NOTE_PREFIX}${reason}`,
      })
      .returning({ id: memberNotes.id });
    return {
      value: { placed },
      audit: {
        action: 'member.hold',
        target: memberTarget(memberId),
        before: { hold: before?.hold ?? null },
        after: {
          hold: 'operator',
          reason: auditTextDigest(reason),
          noteId: note!.id,
          category: notice.category,
          restrictionId: restriction.id,
        },
      },
    };
  });
}

// ── Notes ───────────────────────────────────────────────────────────────────────────────────────

export interface MemberNote {
  id: number;
  authorLabel: string;
  text: string;
  createdAt: string;
}

/** Adds a staff note on a member (`member.note`); notes are never edited or shown to the member. */
export async function addMemberNoteAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  text: string,
): Promise<OperatorOutcome<MemberNote>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const profile = await memberProfileOf(tx, memberId);
    if (!profile) return refused('MEMBER_NOT_FOUND', { memberId });
    const [note] = await tx
      .insert(memberNotes)
      .values({ memberId, authorId: operator.memberId, authorLabel: operator.label, text })
      .returning();
    const view = {
      id: note!.id,
      authorLabel: note!.authorLabel,
      text: note!.text,
      createdAt: note!.createdAt.toISOString(),
    };
    return {
      value: view,
      // The note itself is the erasable record (退会 redacts it); the append-only log keeps its digest.
      audit: {
        action: 'member.note',
        target: memberTarget(memberId),
        after: { noteId: view.id, text: auditTextDigest(text) },
      },
    };
  });
}

/** A member's notes, newest first, a page of `limit` before the note id `before`. */
export async function listMemberNotes(
  db: Database,
  memberId: string,
  page: { limit: number; before?: number },
): Promise<{ items: MemberNote[]; nextBefore: number | null }> {
  const rows = await db
    .select()
    .from(memberNotes)
    .where(and(eq(memberNotes.memberId, memberId), page.before ? lt(memberNotes.id, page.before) : undefined))
    .orderBy(desc(memberNotes.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map((n) => ({
    id: n.id,
    authorLabel: n.authorLabel,
    text: n.text,
    createdAt: n.createdAt.toISOString(),
  }));
  return { items, nextBefore: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
}
