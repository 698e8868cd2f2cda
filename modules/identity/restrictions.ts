// Account restrictions as the member is told of them (issue 34 item 6, decision 084): an operator's hold or
// ban opens a restriction with a reason category from the account policy; lifting it (by hand, on appeal, or
// a ban's end) closes it. A banned member has no session, so a ban's notice mails a statement link: a token
// whose SHA-256 the row keeps, which opens the member's statement and takes one appeal, nothing else. The
// appeal is an inquiry (modules/support); its decision is recorded here once, with the operator's statement.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { mentions, redactedText } from '#db/redact';
import { memberRestrictions, type AppealOutcome, type RestrictionCategory, type RestrictionKind } from './schema';
import { APPEAL_WINDOW_DAYS } from './restriction-words';

/** A statement link lives as long as an appeal is taken, and a day more (a resent link starts again). */
export const STATEMENT_LINK_DAYS = APPEAL_WINDOW_DAYS + 1;
const DAY_MS = 86_400_000;

/**
 * A link's last moment: the appeal window and a day, or `until` when that is later (while a closing shop takes
 * 払戻し applications, a banned member's link lives until the refund deadline and a day; decision 085).
 */
const linkExpiry = (now: Date, until?: Date | null) =>
  new Date(Math.max(now.getTime() + STATEMENT_LINK_DAYS * DAY_MS, until?.getTime() ?? 0));

/** The member's page of their statement when they have a session (a held member), and a link's page. */
export const STANDING_PAGE_PATH = '/mypage/standing';
export const statementLinkPath = (token: string) => `/standing/${token}`;

export interface Restriction {
  id: string;
  memberId: string;
  kind: RestrictionKind;
  category: RestrictionCategory;
  startedAt: Date;
  /** Who restricted (an operator's member id or label): never shown to the member; they may not decide the appeal. */
  startedBy: string;
  until: Date | null;
  endedAt: Date | null;
  /** Whether it holds at `now`: not ended, and a ban not past its last moment. */
  inForce: boolean;
  /** The last day an appeal is taken (start + APPEAL_WINDOW_DAYS). */
  appealUntil: Date;
  appeal: {
    inquiryId: string;
    at: Date;
    outcome: AppealOutcome | null;
    statement: string | null;
    decidedAt: Date | null;
  } | null;
}

type Row = typeof memberRestrictions.$inferSelect;

const toRestriction = (row: Row, now: Date): Restriction => ({
  id: row.id,
  memberId: row.memberId,
  kind: row.kind,
  category: row.category,
  startedAt: row.startedAt,
  startedBy: row.startedBy,
  until: row.until,
  endedAt: row.endedAt,
  inForce: row.endedAt === null && (row.until === null || row.until.getTime() > now.getTime()),
  appealUntil: new Date(row.startedAt.getTime() + APPEAL_WINDOW_DAYS * DAY_MS),
  appeal: row.appealInquiryId
    ? {
        inquiryId: row.appealInquiryId,
        at: row.appealedAt!,
        outcome: row.appealOutcome,
        statement: row.appealStatement,
        decidedAt: row.appealDecidedAt,
      }
    : null,
});

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/**
 * Opens a restriction in the caller's transaction (the operator's hold or ban audits it there). An open one
 * of the same kind is closed first (a new ban replaces the old one's category and end). A ban gets a
 * statement link: answered once as `token`, kept only as its hash.
 * @example const { restriction, token } = await openRestriction(tx, { memberId, kind: 'ban', category: 'automation', until: null, by: operator.label })
 */
export async function openRestriction(
  tx: Database,
  input: {
    memberId: string;
    kind: RestrictionKind;
    category: RestrictionCategory;
    until: Date | null;
    by: string;
    /** The link lives at least until then (a closing shop's refund deadline and a day). */
    linkUntil?: Date | null;
    now?: Date;
  },
): Promise<{ restriction: Restriction; token: string | null }> {
  const now = input.now ?? new Date();
  await closeRestriction(tx, input.memberId, input.kind, input.by, now);
  const token = input.kind === 'ban' ? newToken() : null;
  const [row] = await tx
    .insert(memberRestrictions)
    .values({
      id: randomUUID(),
      memberId: input.memberId,
      kind: input.kind,
      category: input.category,
      startedAt: now,
      startedBy: input.by,
      until: input.kind === 'ban' ? input.until : null,
      linkHash: token ? hashOf(token) : null,
      linkExpiresAt: token ? linkExpiry(now, input.linkUntil) : null,
    })
    .returning();
  return { restriction: toRestriction(row!, now), token };
}

/** Closes the member's open restriction of a kind, in the caller's transaction; answers it (null: none). */
export async function closeRestriction(
  tx: Database,
  memberId: string,
  kind: RestrictionKind,
  by: string,
  now = new Date(),
): Promise<Restriction | null> {
  const [row] = await tx
    .update(memberRestrictions)
    .set({ endedAt: now, endedBy: by })
    .where(
      and(
        eq(memberRestrictions.memberId, memberId),
        eq(memberRestrictions.kind, kind),
        isNull(memberRestrictions.endedAt),
      ),
    )
    .returning();
  return row ? toRestriction(row, now) : null;
}

/**
 * A fresh statement link for a restriction (the old one stops working), living at least until `linkUntil`;
 * null when the restriction does not exist.
 */
export async function renewStatementLink(
  tx: Database,
  restrictionId: string,
  now = new Date(),
  linkUntil?: Date | null,
): Promise<string | null> {
  const token = newToken();
  const updated = await tx
    .update(memberRestrictions)
    .set({ linkHash: hashOf(token), linkExpiresAt: linkExpiry(now, linkUntil) })
    .where(eq(memberRestrictions.id, restrictionId))
    .returning({ id: memberRestrictions.id });
  return updated.length ? token : null;
}

/**
 * The restriction a statement link names, while the link lives; null for an unknown, replaced or expired
 * token (the page says so, whatever the reason, and tells where to ask instead).
 * @example const restriction = await restrictionByLink(db, params.token)
 */
export async function restrictionByLink(db: Database, token: string, now = new Date()): Promise<Restriction | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select()
    .from(memberRestrictions)
    .where(and(eq(memberRestrictions.linkHash, hashOf(token)), gt(memberRestrictions.linkExpiresAt, now)));
  return row ? toRestriction(row, now) : null;
}

/** The member's restrictions, newest first (the admin page lists them; the member sees theirs in force). */
export async function restrictionsOf(db: Database, memberId: string, now = new Date()): Promise<Restriction[]> {
  const rows = await db
    .select()
    .from(memberRestrictions)
    .where(eq(memberRestrictions.memberId, memberId))
    .orderBy(desc(memberRestrictions.startedAt));
  return rows.map((row) => toRestriction(row, now));
}

/**
 * The member's restrictions shown on their statement: those in force, and those whose appeal was decided
 * within the appeal window (so a member sees the outcome of their appeal after a hold is lifted).
 */
export async function restrictionsShownTo(db: Database, memberId: string, now = new Date()): Promise<Restriction[]> {
  const rows = await db
    .select()
    .from(memberRestrictions)
    .where(
      and(
        eq(memberRestrictions.memberId, memberId),
        or(
          isNull(memberRestrictions.endedAt),
          gt(memberRestrictions.appealDecidedAt, new Date(now.getTime() - APPEAL_WINDOW_DAYS * DAY_MS)),
        ),
      ),
    )
    .orderBy(desc(memberRestrictions.startedAt));
  return rows.map((row) => toRestriction(row, now)).filter((r) => r.inForce || r.appeal?.decidedAt);
}

/** A restriction by id, locked for the caller's transaction (an appeal or a decision), or null. */
export async function lockRestriction(
  tx: Database,
  restrictionId: string,
  now = new Date(),
): Promise<Restriction | null> {
  if (!/^[0-9a-f-]{36}$/i.test(restrictionId)) return null;
  const [row] = await tx
    .select()
    .from(memberRestrictions)
    .where(eq(memberRestrictions.id, restrictionId))
    .for('update');
  return row ? toRestriction(row, now) : null;
}

/**
 * Records the member's appeal (the inquiry that carries it) once: false when the restriction already has
 * one, so two taps or two tabs make one appeal.
 */
export async function recordAppeal(tx: Database, restrictionId: string, inquiryId: string, now = new Date()) {
  const updated = await tx
    .update(memberRestrictions)
    .set({ appealInquiryId: inquiryId, appealedAt: now })
    .where(and(eq(memberRestrictions.id, restrictionId), isNull(memberRestrictions.appealInquiryId)))
    .returning({ id: memberRestrictions.id });
  return updated.length > 0;
}

/**
 * Records the decision on an appeal once, with the operator's statement to the member: null when there is
 * no undecided appeal (none sent, or decided already: a decision is never changed). Lifting is the caller's
 * (the hold's or ban's own rule), in the same transaction.
 */
export async function recordAppealDecision(
  tx: Database,
  restrictionId: string,
  decision: { outcome: AppealOutcome; statement: string; by: string },
  now = new Date(),
): Promise<Restriction | null> {
  const [row] = await tx
    .update(memberRestrictions)
    .set({
      appealOutcome: decision.outcome,
      appealStatement: decision.statement,
      appealDecidedAt: now,
      appealDecidedBy: decision.by,
      ...(decision.outcome === 'lifted'
        ? {
            endedAt: sql`coalesce(${memberRestrictions.endedAt}, ${now.toISOString()}::timestamptz)`,
            endedBy: decision.by,
          }
        : {}),
    })
    .where(
      and(
        eq(memberRestrictions.id, restrictionId),
        sql`${memberRestrictions.appealInquiryId} is not null`,
        isNull(memberRestrictions.appealOutcome),
      ),
    )
    .returning();
  return row ? toRestriction(row, now) : null;
}

/**
 * In 退会's transaction: the operators' statements to the member stay (the record of what the shop decided
 * and told), with the member's identifiers redacted (decision 053).
 * @example await redactRestrictionStatementsOf(tx, { memberId, spellings })
 */
export async function redactRestrictionStatementsOf(
  tx: Database,
  member: { memberId: string; spellings: readonly string[] },
): Promise<number> {
  const rows = await tx
    .update(memberRestrictions)
    .set({ appealStatement: redactedText(memberRestrictions.appealStatement, member.spellings) })
    .where(
      and(
        eq(memberRestrictions.memberId, member.memberId),
        mentions(memberRestrictions.appealStatement, member.spellings),
      ),
    )
    .returning({ id: memberRestrictions.id });
  return rows.length;
}
