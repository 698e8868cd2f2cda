// Sponsored accounts (decision 083; 景品表示法's ステマ rule): when a member was a streamer or affiliate the shop
// has a deal with. The operator starts and ends a sponsorship (modules/admin, audited); the winners feed, the
// rankings and the share texts ask whether a member was sponsored at a moment or during a period, and label
// what was done then 「PR」.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberSponsorships, type SponsorshipKind } from './schema';

export { PR_LABEL, PR_LABEL_MEANING, SPONSORSHIP_KIND_LABELS } from './sponsorship-words';

export interface SponsorshipSpan {
  kind: SponsorshipKind;
  startedAt: Date;
  /** Null while it lasts. */
  endedAt: Date | null;
}

/**
 * Every sponsorship of the given members, oldest first (members without one are absent).
 * @example const spans = await sponsorshipSpans(db, ['m1']); sponsoredAt(spans.get('m1'), new Date())
 */
export async function sponsorshipSpans(db: Database, memberIds: string[]): Promise<Map<string, SponsorshipSpan[]>> {
  const ids = [...new Set(memberIds)];
  const spans = new Map<string, SponsorshipSpan[]>();
  if (ids.length === 0) return spans;
  const rows = await db
    .select()
    .from(memberSponsorships)
    .where(inArray(memberSponsorships.memberId, ids))
    .orderBy(asc(memberSponsorships.startedAt));
  for (const row of rows) {
    const list = spans.get(row.memberId) ?? [];
    list.push({ kind: row.kind, startedAt: row.startedAt, endedAt: row.endedAt });
    spans.set(row.memberId, list);
  }
  return spans;
}

/** Whether a sponsorship covered the moment `at` (its start included, its end not). */
export function sponsoredAt(spans: readonly SponsorshipSpan[] | undefined, at: Date): boolean {
  const t = at.getTime();
  return (spans ?? []).some((s) => s.startedAt.getTime() <= t && (s.endedAt === null || t < s.endedAt.getTime()));
}

/** Whether a sponsorship overlapped the period [from, to): a ranking of that period labels the member. */
export function sponsoredDuring(spans: readonly SponsorshipSpan[] | undefined, from: Date, to: Date): boolean {
  return (spans ?? []).some(
    (s) => s.startedAt.getTime() < to.getTime() && (s.endedAt === null || s.endedAt.getTime() > from.getTime()),
  );
}

/** The member's sponsorship now, or null. @example (await currentSponsorship(db, memberId))?.kind */
export async function currentSponsorship(db: Database, memberId: string): Promise<SponsorshipSpan | null> {
  const [row] = await db
    .select()
    .from(memberSponsorships)
    .where(and(eq(memberSponsorships.memberId, memberId), isNull(memberSponsorships.endedAt)));
  return row ? { kind: row.kind, startedAt: row.startedAt, endedAt: null } : null;
}

/**
 * Starts a sponsorship in the caller's transaction; a member already sponsored keeps the one they have
 * (answers false). The operator's action (modules/admin) audits it in the same transaction.
 */
export async function startSponsorship(db: Database, memberId: string, kind: SponsorshipKind): Promise<boolean> {
  const inserted = await db
    .insert(memberSponsorships)
    .values({ memberId, kind })
    .onConflictDoNothing()
    .returning({ id: memberSponsorships.id });
  return inserted.length > 0;
}

/** Ends the member's sponsorship now, in the caller's transaction; answers what ended (null: none was open). */
export async function endSponsorship(db: Database, memberId: string): Promise<SponsorshipSpan | null> {
  const [row] = await db
    .update(memberSponsorships)
    .set({ endedAt: sql`now()` })
    .where(and(eq(memberSponsorships.memberId, memberId), isNull(memberSponsorships.endedAt)))
    .returning();
  return row ? { kind: row.kind, startedAt: row.startedAt, endedAt: row.endedAt } : null;
}
