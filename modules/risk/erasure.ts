// 退会 in the fraud signals: the keyed fingerprints (HMAC of a device, an address, a number) stay for
// fraud prevention (a deleted member who signs up again is still seen), but the readable label (an IP
// address and a browser's user agent) goes, from the fingerprints and from the signals' evidence; the
// staff's decision notes stay with the member's identifiers redacted.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { mentions, redactedText } from '#db/redact';
import { fraudSignals, riskFingerprints } from './schema';

/**
 * In the deletion's transaction: blanks the member's fingerprint labels and drops `label` from the
 * evidence of signals raised on the member. Answers the rows changed.
 * @example await forgetFingerprintLabelsOf(tx, memberId)
 */
export async function forgetFingerprintLabelsOf(tx: Database, memberId: string): Promise<number> {
  const labels = await tx
    .update(riskFingerprints)
    .set({ label: null })
    .where(eq(riskFingerprints.memberId, memberId))
    .returning({ key: riskFingerprints.keyHash });
  const signals = await tx
    .update(fraudSignals)
    .set({ evidence: sql`${fraudSignals.evidence} - 'label'` })
    .where(sql`${fraudSignals.memberId} = ${memberId} and ${fraudSignals.evidence} ? 'label'`)
    .returning({ id: fraudSignals.id });
  return labels.length + signals.length;
}

/**
 * In the deletion's transaction: the staff's decision notes on signals about the member stay (fraud
 * prevention), with the member's identifiers redacted. Answers the signals changed.
 * @example await redactSignalNotesOf(tx, { memberId, spellings })
 */
export async function redactSignalNotesOf(
  tx: Database,
  member: { memberId: string; spellings: readonly string[] },
): Promise<number> {
  const rows = await tx
    .update(fraudSignals)
    .set({ decisionNote: redactedText(fraudSignals.decisionNote, member.spellings) })
    .where(and(eq(fraudSignals.memberId, member.memberId), mentions(fraudSignals.decisionNote, member.spellings)))
    .returning({ id: fraudSignals.id });
  return rows.length;
}
