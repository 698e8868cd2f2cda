// A finished pack's public reveal: gacha's terms, seed and lot order joined with draw's own log of
// who drew which positions, and its verification, kept once computed (the record no longer changes).
import { asc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { packRevealStamp, packRevealTerms } from '#modules/gacha';
import { buildPackReveal, verifyReveal, type PackReveal } from '#modules/fairness';
import { draws, prizes } from './schema';

/**
 * The reveal file of a pack that sold out or ended, or null while it is still on sale.
 * @example const reveal = await getPackReveal(db, 'stellar-yugioh-002')
 */
export async function getPackReveal(db: Database, gachaId: string): Promise<PackReveal | null> {
  const terms = await packRevealTerms(db, gachaId);
  if (!terms) return null;
  const prizeRows = await db
    .select({
      drawId: prizes.drawId,
      memberId: prizes.memberId,
      position: prizes.position,
      tierId: prizes.tierId,
      kiriban: prizes.kiribanNo,
      personalKiriban: prizes.personalKiribanNo,
      pitariOf: prizes.pitariOf,
      ceilingNo: prizes.ceilingNo,
      at: prizes.createdAt,
    })
    .from(prizes)
    .innerJoin(draws, eq(draws.id, prizes.drawId))
    .where(eq(prizes.gachaId, gachaId))
    // Claim order (the database keeps microseconds; the file shows milliseconds): draws come out in the
    // order they claimed, which buildPackReveal keeps within a millisecond, so each キリ番 is checked
    // against exactly the lots sold before it (decision 027).
    .orderBy(asc(prizes.createdAt), asc(prizes.position));
  const byDraw = new Map<
    string,
    {
      at: Date;
      memberId: string;
      positions: number[];
      lastOne: boolean;
      kiriban: number[];
      personalKiriban: number[];
      pitari: string[];
      ceiling: number;
    }
  >();
  for (const row of prizeRows) {
    const entry = byDraw.get(row.drawId) ?? {
      at: new Date(row.at),
      memberId: row.memberId,
      positions: [],
      lastOne: false,
      kiriban: [],
      personalKiriban: [],
      pitari: [],
      ceiling: 0,
    };
    if (row.position !== null) entry.positions.push(row.position);
    if (row.kiriban !== null) entry.kiriban.push(row.kiriban);
    if (row.personalKiriban !== null) entry.personalKiriban.push(row.personalKiriban);
    if (row.pitariOf !== null) entry.pitari.push(row.pitariOf);
    if (row.ceilingNo !== null) entry.ceiling += 1;
    if (row.tierId === terms.lastOneTierId) entry.lastOne = true;
    if (new Date(row.at) < entry.at) entry.at = new Date(row.at);
    byDraw.set(row.drawId, entry);
  }
  const { lastOneTierId: _lastOne, ...pack } = terms;
  return buildPackReveal({ ...pack, draws: [...byDraw.values()] });
}

const verified = new Map<
  string,
  {
    ok: boolean;
    checks: { name: string; ok: boolean; detail: string }[];
    seed: string;
    revealedAt: string;
    draws: number;
  }
>();

/**
 * A pack's reveal at a glance (its seed, time and draws) with the shop's own verification of it: computed once
 * per reveal (a sold-out or ended pack's record no longer changes) and kept in memory, so page views do not
 * re-run it. The pack page shows the seed and time and lets the visitor verify in the browser (decision 043).
 * @example const result = await verifiedReveal(db, 'stellar-yugioh-002') // null while on sale
 */
export async function verifiedReveal(db: Database, gachaId: string) {
  const at = await packRevealStamp(db, gachaId);
  const key = `${gachaId}:${at ? at.getTime() : ''}`;
  const cached = verified.get(key);
  if (cached) return cached;
  const reveal = await getPackReveal(db, gachaId);
  if (!reveal) return null;
  const result = {
    ...verifyReveal(reveal),
    seed: reveal.seed,
    revealedAt: reveal.revealedAt,
    draws: reveal.draws.length,
  };
  if (verified.size >= 500) verified.delete(verified.keys().next().value!);
  verified.set(key, result);
  return result;
}
