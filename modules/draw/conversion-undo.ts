// Undoing a member's own conversion within a few seconds (decision 057). A conversion by the member
// (prize_convert with an undo window) is recorded in prize_conversions; prize_convert_undo reverses it
// exactly: the prizes go back as they were, each grant is taken back whole with a new ledger entry
// (prize_conversion_undo; the ledger stays append-only), the cards are reserved again. One row lock on
// the conversion makes a double tap, two instances or a retry undo it once.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { isUuid, refuse, type Outcome, type Refusal } from '#modules/kernel';

/** Every refusal of an undo; refusal-words.ts words each one. */
export const CONVERSION_UNDO_REFUSAL_CODES = [
  'CONVERSION_NOT_FOUND',
  'UNDO_EXPIRED',
  'COINS_SPENT',
  'UNDO_UNAVAILABLE',
] as const;
export type ConversionUndoRefusalCode = (typeof CONVERSION_UNDO_REFUSAL_CODES)[number];
export type ConversionUndoRefusal = Refusal<ConversionUndoRefusalCode>;

export type ConversionUndoOutcome = Outcome<
  {
    ok: true;
    /** Cards back in the box. */
    restored: number;
    /** Coins taken back. */
    total: number;
    /** The conversion had already been undone (a second tap, a retry): nothing more was done. */
    replay: boolean;
    balance: { paid: number; free: number };
  },
  ConversionUndoRefusalCode
>;

/**
 * Undoes the member's conversion `conversionId` while its window lasts. Another member's conversion,
 * or none, is CONVERSION_NOT_FOUND; after the window UNDO_EXPIRED; when some of its coins were spent
 * meanwhile COINS_SPENT. Undoing twice answers the first undo (`replay: true`).
 * @example const outcome = await undoConversion(db, member.id, conversionId)
 */
export async function undoConversion(
  db: Database,
  memberId: string,
  conversionId: string,
  options: { now?: Date } = {},
): Promise<ConversionUndoOutcome> {
  if (!isUuid(conversionId)) return refuse('CONVERSION_NOT_FOUND');
  type Raw = {
    status: 'completed' | 'rejected';
    code?: string;
    restored?: number;
    total?: number;
    replay?: boolean;
    balance?: { paid: number; free: number };
  };
  const [row] = await queryRows<{ r: Raw }>(
    db,
    sql`select prize_convert_undo(${memberId}::text, ${conversionId}::uuid,
      ${options.now ? options.now.toISOString() : null}::timestamptz) as r`,
  );
  const raw = row!.r;
  if (raw.status !== 'completed')
    return refuse(CONVERSION_UNDO_REFUSAL_CODES.find((c) => c === raw.code) ?? 'UNDO_UNAVAILABLE');
  return {
    ok: true,
    restored: raw.restored ?? 0,
    total: raw.total ?? 0,
    replay: Boolean(raw.replay),
    balance: raw.balance ?? { paid: 0, free: 0 },
  };
}
