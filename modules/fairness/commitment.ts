// Provably-fair packs over node:crypto: the seed, the shuffle, the commitment, the pseudonyms, the reveal file
// and its verification. The byte formats, the parser and the checks themselves live in format.ts,
// reveal-parser.ts, reveal-checks.ts and ceiling*.ts (no node import), shared with browser.ts so the pack page
// verifies in the browser exactly as verify-pack does.
// The byte formats are specified in docs/decisions/005-pack-commitment.md; changing one needs a new version.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  MEMBER_LABEL,
  CommitmentInputError,
  assertShuffleInput,
  canonicalLots,
  canonicalPackDocument,
  fisherYates,
  hasKiriban,
  hasV3Extras,
  isKiribanTier,
  isPersonalKiribanTier,
  isPitariTier,
  revealFormatOf,
  shuffleBlockMessage,
  type CommitmentInput,
  type PackReveal,
  type PackTerms,
  type PackTier,
  type RevealVerification,
} from './format';
import { hasCeiling, isCeilingTier } from './ceiling';
export { parsePackReveal, type ParseResult } from './reveal-parser';
import { parsePackReveal } from './reveal-parser';
import { checkReveal, commitmentInputOf, isSeed, shapeFailure, type Attempt } from './reveal-checks';

export {
  COMMITMENT_VERSION,
  COMMITMENT_VERSION_KIRIBAN,
  COMMITMENT_VERSION_EXTRAS,
  COMMITMENT_VERSION_CEILING,
  SHUFFLE_LABEL,
  MEMBER_LABEL,
  REVEAL_FORMAT,
  REVEAL_FORMAT_KIRIBAN,
  REVEAL_FORMAT_EXTRAS,
  REVEAL_FORMAT_CEILING,
  MAX_LOTS,
  CHECK_NAMES,
  CommitmentInputError,
  canonicalLots,
  canonicalPackDocument,
  hasKiriban,
  hasV3Extras,
  isExtraTier,
  isKiribanTier,
  isPersonalKiribanTier,
  isPitariTier,
  personalKiribanQuantity,
  revealFormatOf,
  type CommitmentInput,
  type DrawLogEntry,
  type PackReveal,
  type PackTerms,
  type PackTier,
  type RevealCheck,
  type RevealFormat,
  type RevealStats,
  type RevealVerification,
} from './format';
export { ceilingQuantity, ceilingWalk, hasCeiling, isCeilingTier, type CeilingFields } from './ceiling';

/**
 * A new secret seed: 32 random bytes, lower-case hex. Store it apart from the pack until the reveal.
 * @example const seed = generateSeed(); // '9f2c…' (64 characters)
 */
export function generateSeed(): string {
  return randomBytes(32).toString('hex');
}

/** Big-endian uint32 candidates from HMAC-SHA256(key = seed bytes, SHUFFLE_LABEL || uint32be(counter)), counter 0, 1, 2 … */
function shuffleStream(seed: string): () => number {
  const key = Buffer.from(seed, 'hex');
  let counter = 0;
  let block = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset === block.length) {
      if (counter > 0xffffffff) throw new Error('shuffle stream exhausted');
      block = createHmac('sha256', key).update(shuffleBlockMessage(counter)).digest();
      counter += 1;
      offset = 0;
    }
    const value = block.readUInt32BE(offset);
    offset += 4;
    return value;
  };
}

/**
 * Fisher–Yates over a copy of `tierIds`, driven by the seed: for i = n−1 … 1, j uniform in 0..i, swap.
 * j comes from 32-bit candidates by rejection (reject u ≥ 2³² − 2³² mod (i+1)), so no position is favoured.
 * @example const lots = shuffleLots(seed, canonicalLots(tiers)); // lots[0] is position 1
 */
export function shuffleLots(seed: string, tierIds: string[]): string[] {
  assertShuffleInput(seed, tierIds);
  return fisherYates(tierIds, shuffleStream(seed));
}

/**
 * The published commitment: SHA-256 (lower-case hex) of canonicalPackDocument's UTF-8 bytes.
 * @example computeCommitment({ gachaId, title, pricePerDraw: 500, tiers, seed, lots }) // 64 hex characters
 */
export function computeCommitment(input: CommitmentInput): string {
  return createHash('sha256').update(canonicalPackDocument(input), 'utf8').digest('hex');
}

/**
 * Everything a pack needs at publication: a fresh seed (or the given one), the shuffled lots, the commitment.
 * The seed stays secret until the reveal; the commitment is shown on the pack page from publication on.
 * @example const { seed, lots, commitment } = createPackCommitment({ gachaId, title, pricePerDraw, tiers });
 */
export function createPackCommitment(
  terms: PackTerms,
  seed: string = generateSeed(),
): { seed: string; lots: string[]; commitment: string } {
  const lots = shuffleLots(seed, canonicalLots(terms.tiers));
  return { seed, lots, commitment: computeCommitment({ ...terms, seed, lots }) };
}

/**
 * A member's pseudonym in one pack's log: the first 16 hex characters of
 * HMAC-SHA256(key = revealSalt, MEMBER_LABEL || 0x00 || memberId). Use a per-pack random secret as the salt
 * and never publish it: then pseudonyms match within a pack, differ across packs, and cannot be tried against ids.
 * @example anonymiseMember('user_123', packRevealSalt) // 'c41f09a2e6b7d3f0'
 */
export function anonymiseMember(memberId: string, revealSalt: string): string {
  if (!memberId) throw new CommitmentInputError('memberId is empty');
  if (revealSalt.length < 16) throw new CommitmentInputError('revealSalt must be a secret of at least 16 characters');
  return createHmac('sha256', revealSalt).update(`${MEMBER_LABEL}\u0000${memberId}`, 'utf8').digest('hex').slice(0, 16);
}

/** A draw as the shop records it, before anonymising. */
export interface RecordedDraw {
  at: Date | string;
  memberId: string;
  positions: number[];
  lastOne: boolean;
  /** The キリ番 numbers the draw won. */
  kiriban?: number[];
  /** The member's own lot numbers the draw won a 個人キリ番賞 for. */
  personalKiriban?: number[];
  /** The lot tiers the draw emptied and won the ピタリ賞 of. */
  pitari?: string[];
  /** The 天井賞 the draw won (ceilingWalk over its lots from its member's streak); 0 or absent when none. */
  ceiling?: number;
}

/**
 * The reveal file from the shop's records: draws sorted by time and numbered 1..D, members anonymised.
 * `at` must be the moment of the claim (so the draw that took the final lot is the latest); at the same
 * millisecond the ラストワン賞 draw goes last, since the shop knows it claimed last; otherwise draws keep the
 * order they are given in (give them in claim order: a キリ番 is checked against the lots counted before it).
 * @example const reveal = buildPackReveal({ gacha, tiers, commitment, committedAt, seed, lots, draws, revealSalt });
 */
export function buildPackReveal(input: {
  gacha: { id: string; title: string; pricePerDraw: number };
  tiers: PackTier[];
  commitment: string;
  committedAt: Date | string;
  seed: string;
  lots: string[];
  draws: RecordedDraw[];
  revealSalt: string;
  revealedAt?: Date | string;
}): PackReveal {
  const iso = (value: Date | string) => (typeof value === 'string' ? new Date(value) : value).toISOString();
  const v4 = hasCeiling(input.tiers);
  const v3 = v4 || hasV3Extras(input.tiers);
  const kiriban = v3 || hasKiriban(input.tiers);
  const draws = input.draws
    .map((draw, index) => ({ draw, index, time: Date.parse(iso(draw.at)) }))
    .sort((a, b) => a.time - b.time || Number(a.draw.lastOne) - Number(b.draw.lastOne) || a.index - b.index)
    .map(({ draw }, index) => ({
      drawNo: index + 1,
      at: iso(draw.at),
      member: anonymiseMember(draw.memberId, input.revealSalt),
      positions: [...draw.positions].sort((a, b) => a - b),
      lastOne: draw.lastOne,
      ...(kiriban ? { kiriban: [...(draw.kiriban ?? [])].sort((a, b) => a - b) } : {}),
      ...(v3
        ? {
            personalKiriban: [...(draw.personalKiriban ?? [])].sort((a, b) => a - b),
            pitari: [...(draw.pitari ?? [])].sort(),
          }
        : {}),
      ...(v4 ? { ceiling: draw.ceiling ?? 0 } : {}),
    }));
  return {
    format: revealFormatOf(input.tiers),
    gacha: {
      id: input.gacha.id,
      title: input.gacha.title,
      pricePerDraw: input.gacha.pricePerDraw,
      totalLots: input.lots.length,
    },
    tiers: input.tiers.map(({ kiribanAt, personalKiribanAt, pitariOf, ceilingAfter, ceilingOf, ...tier }) => ({
      ...tier,
      ...(isKiribanTier({ kiribanAt }) ? { kiribanAt: [...kiribanAt!] } : {}),
      ...(isPersonalKiribanTier({ personalKiribanAt }) ? { personalKiribanAt: [...personalKiribanAt!] } : {}),
      ...(isPitariTier({ pitariOf }) ? { pitariOf } : {}),
      ...(isCeilingTier({ ceilingAfter }) ? { ceilingAfter, ceilingOf: [...(ceilingOf ?? [])] } : {}),
    })),
    commitment: input.commitment,
    committedAt: iso(input.committedAt),
    seed: input.seed,
    lots: [...input.lots],
    draws,
    revealedAt: iso(input.revealedAt ?? new Date()),
  };
}

const attempt = <T>(compute: () => T): Attempt<T> => {
  try {
    return { ok: true, value: compute() };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
};

/**
 * Verifies a reveal file: the commitment, that the order came from the seed, the tier counts, the draw log,
 * the ラストワン賞 and the totals. Never throws; `ok` is true only when every check passes.
 * @example const { ok, checks } = verifyReveal(JSON.parse(text));
 */
export function verifyReveal(reveal: PackReveal): RevealVerification {
  const parsed = parsePackReveal(reveal);
  if (!parsed.ok) return shapeFailure(parsed.errors);
  const { seed, tiers } = parsed.reveal;
  return checkReveal(parsed.reveal, {
    commitment: attempt(() => computeCommitment(commitmentInputOf(parsed.reveal))),
    order: isSeed(seed) ? attempt(() => shuffleLots(seed, canonicalLots(tiers))) : null,
  });
}
