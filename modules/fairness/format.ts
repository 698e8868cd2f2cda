// The browser-safe half of the fairness module: the byte formats (version labels, canonical lots and the
// commitment document), the reveal file's parser and the verifier's checks with their Japanese names and
// details. No node import and no crypto: commitment.ts (node:crypto) and browser.ts (Web Crypto) compute the
// two hashes their own way and hand them to checkReveal here, so the shop, verify-pack and the pack page's
// 「このブラウザで検証する」 report the same checks, word for word. Formats: docs/decisions/005 and 027.
// Here: the formats and the canonical document; the parser: reveal-parser.ts; the checks: reveal-checks.ts; the
// 天井賞's rule: ceiling.ts.
import { ceilingTermsProblem, hasCeiling, isCeilingTier } from './ceiling';

/** Domain-separation labels: part of the hashed bytes, so a change of format cannot collide with v1. */
export const COMMITMENT_VERSION = 'oripa-commitment-v1';
/** The document of a pack with キリ番賞 (decision 027): v1 plus each tier's キリ番 numbers. */
export const COMMITMENT_VERSION_KIRIBAN = 'oripa-commitment-v2';
/**
 * The document of a pack with 個人キリ番賞 or ピタリ賞 (issue 34, decision 088): v2 plus each tier's personal
 * numbers and the tier whose emptying it rewards.
 */
export const COMMITMENT_VERSION_EXTRAS = 'oripa-commitment-v3';
/** The document of a pack with a 天井賞 (issue 34): v3 plus each tier's ceiling and the lot tiers that reset it. */
export const COMMITMENT_VERSION_CEILING = 'oripa-commitment-v4';
export const SHUFFLE_LABEL = 'oripa-shuffle-v1';
export const MEMBER_LABEL = 'oripa-member-v1';
export const REVEAL_FORMAT = 'oripa-pack-reveal/1';
/** The reveal file of a pack with キリ番賞 (decision 027): tiers carry `kiribanAt`, draws `kiriban`. */
export const REVEAL_FORMAT_KIRIBAN = 'oripa-pack-reveal/2';
/**
 * The reveal file of a pack with 個人キリ番賞 or ピタリ賞 (decision 088): /2 plus tiers' `personalKiribanAt` and
 * `pitariOf`, draws' `personalKiriban` and `pitari`.
 */
export const REVEAL_FORMAT_EXTRAS = 'oripa-pack-reveal/3';
/** The reveal file of a pack with a 天井賞: /3 plus tiers' `ceilingAfter` and `ceilingOf`, draws' `ceiling`. */
export const REVEAL_FORMAT_CEILING = 'oripa-pack-reveal/4';
export type RevealFormat =
  typeof REVEAL_FORMAT | typeof REVEAL_FORMAT_KIRIBAN | typeof REVEAL_FORMAT_EXTRAS | typeof REVEAL_FORMAT_CEILING;
/** Upper bound on a pack's lots: keeps the reveal file (about 10 bytes a lot) and verification small. */
export const MAX_LOTS = 1_000_000;

/**
 * A prize tier as committed. The ラストワン賞 tier (isLastOne) and キリ番賞 tiers (kiribanAt) are committed
 * to but are not lots: extra prizes for the draw that takes the final lot, or the Nth lot sold.
 */
export interface PackTier {
  /** Printable ASCII without spaces (1–128 chars), unique within the pack; orders the canonical lot list. */
  id: string;
  label: string;
  cardName: string;
  /** Lots of this tier (the last-one tier: 1; a キリ番 tier: its numbers; neither is among the lots). */
  quantity: number;
  /** Coins, an integer. */
  conversionValue: number;
  isLastOne: boolean;
  /**
   * A キリ番賞: the lot numbers (ascending, each 1..N−1: the Nth lot sold of the pack) whose draw wins this
   * prize, one prize per number. Absent (or empty) for every other tier.
   */
  kiribanAt?: number[];
  /**
   * A 個人キリ番賞 (format v3): a member's own lot numbers in this pack (ascending, each 1..N: 10 = the member's
   * 10th lot) whose draw wins this prize, once per member and number. quantity = the most it can be given:
   * Σ ⌊N ÷ n⌋ over its numbers.
   */
  personalKiribanAt?: number[];
  /** A ピタリ賞 (format v3): the id of the lot tier whose last lot's draw wins this prize. quantity = 1. */
  pitariOf?: string;
  /**
   * A 天井賞 (format v4, at most one a pack): N, a positive integer ≤ the pack's lots. A member's lots in log and
   * position order form a streak of misses (lots of tiers not in `ceilingOf`); the Nth wins this prize and
   * starts a new streak, a hit starts one too. quantity = the most it can give: ⌊lots ÷ N⌋ (ceilingQuantity).
   */
  ceilingAfter?: number;
  /** A 天井賞's hits (format v4): ids of lot tiers (e.g. 「A賞以上」 ['a', 's']), ascending by id, no duplicates. */
  ceilingOf?: string[];
}

/** The pack's terms that the commitment binds. */
export interface PackTerms {
  gachaId: string;
  title: string;
  /** Coins per draw, an integer. */
  pricePerDraw: number;
  tiers: PackTier[];
}

export interface CommitmentInput extends PackTerms {
  /** 64 lower-case hex characters (32 bytes). */
  seed: string;
  /** Tier id by position: index 0 is position 1. */
  lots: string[];
}

/** One draw in the anonymised log published with the reveal. */
export interface DrawLogEntry {
  /** The draw's number within this pack: 1, 2, 3 … in the order the draws committed. */
  drawNo: number;
  /** ISO 8601 time the draw committed. */
  at: string;
  /** anonymiseMember(memberId, pack's revealSalt): never an id or an e-mail address. */
  member: string;
  /** Positions (1..N) this draw received. */
  positions: number[];
  /** Whether this draw received the ラストワン賞. */
  lastOne: boolean;
  /** The キリ番 numbers this draw won (format /2 and /3; [] when none). */
  kiriban?: number[];
  /** The member's own lot numbers this draw won a 個人キリ番賞 for (format /3; [] when none). */
  personalKiriban?: number[];
  /** The lot tiers this draw emptied and won the ピタリ賞 of (format /3 and /4; [] when none). */
  pitari?: string[];
  /** The 天井賞 this draw won (format /4; 0 when none): ceilingWalk over its lots from its member's streak. */
  ceiling?: number;
}

/** The file published after a pack sells out or ends (JSON). */
export interface PackReveal {
  format: RevealFormat;
  gacha: { id: string; title: string; pricePerDraw: number; totalLots: number };
  tiers: PackTier[];
  commitment: string;
  committedAt: string;
  seed: string;
  lots: string[];
  draws: DrawLogEntry[];
  revealedAt: string;
}

export interface RevealCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface RevealVerification {
  ok: boolean;
  checks: RevealCheck[];
  /** Counts for the verify page; undefined when the file's shape was invalid. */
  stats?: RevealStats;
}

export interface RevealStats {
  totalLots: number;
  drawnLots: number;
  undrawnLots: number;
  draws: number;
  /** Draws that did not receive the lowest undrawn positions (concurrent draws, rolled-back claims). */
  drawsOutOfOrder: number;
  soldOut: boolean;
  /** キリ番 numbers reached (the pack sold at least that many lots), all of them awarded when ok. */
  kiribanReached: number;
  /** 個人キリ番賞 given (format /3 only). */
  personalKiribanAwarded?: number;
  /** ピタリ賞 whose tier the sale emptied, each given once when ok (format /3 only). */
  pitariReached?: number;
  /** 天井賞 given: the sum of the draws' `ceiling` (format /4 only). */
  ceilingAwarded?: number;
}

/** Thrown by the builders for input that has no canonical form (a caller's bug, not a user's). */
export class CommitmentInputError extends Error {
  override name = 'CommitmentInputError';
}

/** The Japanese names of the checks, in the order verifyReveal reports them. */
export const CHECK_NAMES = {
  shape: 'ファイル形式',
  commitment: 'コミットメント一致',
  order: '並び順とシードの一致',
  tiers: '賞の数量',
  drawLog: '抽選ログ',
  lastOne: 'ラストワン賞',
  totals: '口数の合計',
  kiriban: 'キリ番賞',
  personalKiriban: '個人キリ番賞',
  pitari: 'ピタリ賞',
  ceiling: '天井賞',
} as const;

export const SEED_PATTERN = /^[0-9a-f]{64}$/;
export const HASH_PATTERN = /^[0-9a-f]{64}$/;
export const MEMBER_PATTERN = /^[0-9a-f]{16}$/;
export const TIER_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const utf8 = new TextEncoder();

const isNonNegativeInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/**
 * A reveal file's time as milliseconds since 1970-01-01T00:00:00Z, or NaN unless it is one of the accepted
 * ISO 8601 forms (docs/formats/reveal-formats.md): a real calendar date, hour 00–23, minute and second 00–59,
 * `Z` or an offset ±HH:MM (HH 00–23, MM 00–59). Digits of the fraction after the third are ignored (truncated).
 * Checked field by field, not with Date.parse, which rolls 2026-02-30 and 24:00 over to the next day: a verifier
 * in another language must accept exactly the same times.
 * @example parseIsoTime('2026-11-22T19:00:00.5+09:00') === Date.UTC(2026, 10, 22, 10, 0, 0, 500)
 */
export function parseIsoTime(value: string): number {
  const match = ISO_TIME.exec(value);
  if (!match) return NaN;
  const [year, month, day, hour, minute, second = 0] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const millisecond = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetSign = match[8] === '-' ? -1 : 1;
  const [offsetHour, offsetMinute] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  const daysInMonth = month >= 1 && month <= 12 ? new Date(Date.UTC(2000, month, 0)).getUTCDate() : 0;
  const leapDay = month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
  if (day < 1 || day > daysInMonth || leapDay || hour > 23 || minute > 59 || second > 59) return NaN;
  if (offsetHour > 23 || offsetMinute > 59) return NaN;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // years 0000–0099 too, which Date.UTC would read as 1900–1999
  utc.setUTCHours(hour, minute, second, millisecond);
  return utc.getTime() - offsetSign * (offsetHour * 60 + offsetMinute) * 60_000;
}
export const isIsoTime = (value: string) => !Number.isNaN(parseIsoTime(value));
/** Tier ids are ASCII, so comparing UTF-16 code units is byte order and any language sorts alike. */
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Throws unless the tiers have one canonical form: unique ASCII ids, integer quantities, ≤ 1 last-one tier. */
function assertTiers(tiers: PackTier[]): void {
  const ids = new Set<string>();
  const kiriban = new Set<number>();
  let lastOneTiers = 0;
  let lots = 0;
  for (const tier of tiers) {
    if (!TIER_ID_PATTERN.test(tier.id))
      throw new CommitmentInputError(`tier id must be printable ASCII without spaces: ${JSON.stringify(tier.id)}`);
    if (ids.has(tier.id)) throw new CommitmentInputError(`duplicate tier id ${tier.id}`);
    ids.add(tier.id);
    if (!Number.isSafeInteger(tier.quantity) || tier.quantity < 1)
      throw new CommitmentInputError(`tier ${tier.id}: quantity must be a positive integer`);
    if (!isNonNegativeInteger(tier.conversionValue))
      throw new CommitmentInputError(`tier ${tier.id}: conversionValue must be a non-negative integer`);
    for (const field of ['kiribanAt', 'personalKiribanAt'] as const)
      if (tier[field] !== undefined && !Array.isArray(tier[field]))
        throw new CommitmentInputError(`tier ${tier.id}: ${field} must be an array`);
    if (tier.pitariOf !== undefined && (typeof tier.pitariOf !== 'string' || !TIER_ID_PATTERN.test(tier.pitariOf)))
      throw new CommitmentInputError(`tier ${tier.id}: pitariOf must be a tier id`);
    const kinds = [tier.isLastOne, isKiribanTier(tier), isPersonalKiribanTier(tier), isPitariTier(tier)];
    if ([...kinds, isCeilingTier(tier)].filter(Boolean).length > 1)
      throw new CommitmentInputError(
        `tier ${tier.id}: a tier is one of last-one, キリ番, 個人キリ番, ピタリ and 天井 at most`,
      );
    if (isKiribanTier(tier)) {
      const numbers = tier.kiribanAt!;
      if (!ascendingPositive(numbers))
        throw new CommitmentInputError(`tier ${tier.id}: kiribanAt must be ascending positive integers`);
      if (tier.quantity !== numbers.length)
        throw new CommitmentInputError(`tier ${tier.id}: a キリ番 tier's quantity is the number of its numbers`);
      for (const n of numbers) {
        if (kiriban.has(n)) throw new CommitmentInputError(`キリ番 ${n} is given twice`);
        kiriban.add(n);
      }
    } else if (isPersonalKiribanTier(tier)) {
      if (!ascendingPositive(tier.personalKiribanAt!))
        throw new CommitmentInputError(`tier ${tier.id}: personalKiribanAt must be ascending positive integers`);
    } else if (isPitariTier(tier)) {
      if (tier.quantity !== 1) throw new CommitmentInputError(`tier ${tier.id}: a ピタリ tier has quantity 1`);
    } else if (isCeilingTier(tier)) {
      // its terms are checked below, once the pack's lots are counted
    } else if (tier.isLastOne) {
      lastOneTiers += 1;
      if (tier.quantity !== 1) throw new CommitmentInputError(`tier ${tier.id}: the last-one tier has quantity 1`);
    } else {
      lots += tier.quantity;
    }
  }
  if (lastOneTiers > 1) throw new CommitmentInputError('at most one last-one tier');
  if (lots < 1 || lots > MAX_LOTS) throw new CommitmentInputError(`a pack has 1 to ${MAX_LOTS} lots, not ${lots}`);
  for (const n of kiriban)
    if (n >= lots) throw new CommitmentInputError(`キリ番 ${n} must be below the pack's ${lots} lots`);
  const pitariTargets = new Set<string>();
  for (const tier of tiers) {
    if (isPersonalKiribanTier(tier)) {
      if (tier.personalKiribanAt!.some((n) => n > lots))
        throw new CommitmentInputError(`tier ${tier.id}: a member cannot draw more than the pack's ${lots} lots`);
      if (tier.quantity !== personalKiribanQuantity(tier.personalKiribanAt!, lots))
        throw new CommitmentInputError(
          `tier ${tier.id}: a 個人キリ番 tier's quantity is Σ ⌊lots ÷ n⌋ over its numbers`,
        );
    }
    if (isPitariTier(tier)) {
      const target = tiers.find((t) => t.id === tier.pitariOf);
      if (!target || isExtraTier(target))
        throw new CommitmentInputError(`tier ${tier.id}: pitariOf must name a lot tier of the pack`);
      if (pitariTargets.has(tier.pitariOf!))
        throw new CommitmentInputError(`tier ${tier.pitariOf}: at most one ピタリ tier per lot tier`);
      pitariTargets.add(tier.pitariOf!);
    }
  }
  const lotTier = (id: string) => tiers.some((t) => t.id === id && !isExtraTier(t));
  const ceilingProblem = ceilingTermsProblem(tiers, lots, lotTier);
  if (ceilingProblem) throw new CommitmentInputError(ceilingProblem);
}

const ascendingPositive = (numbers: number[]) =>
  numbers.every((n, i) => Number.isSafeInteger(n) && n >= 1 && (i === 0 || n > numbers[i - 1]));

/**
 * The most 個人キリ番賞 a tier can give in a pack of `lots` lots: each of its numbers n once per member who
 * draws n lots, and at most ⌊lots ÷ n⌋ members can. Its committed quantity (the stock the shop holds for it).
 * @example personalKiribanQuantity([10, 50], 1000) === 120
 */
export function personalKiribanQuantity(numbers: readonly number[], lots: number): number {
  return numbers.reduce((sum, n) => sum + Math.floor(lots / n), 0);
}

/** A キリ番賞 tier: one with at least one キリ番 number. */
export function isKiribanTier(tier: Pick<PackTier, 'kiribanAt'>): boolean {
  return Array.isArray(tier.kiribanAt) && tier.kiribanAt.length > 0;
}

/** A 個人キリ番賞 tier: one with at least one of the member's own lot numbers. */
export function isPersonalKiribanTier(tier: Pick<PackTier, 'personalKiribanAt'>): boolean {
  return Array.isArray(tier.personalKiribanAt) && tier.personalKiribanAt.length > 0;
}

/** A ピタリ賞 tier: one naming the lot tier whose emptying it rewards. */
export function isPitariTier(tier: Pick<PackTier, 'pitariOf'>): boolean {
  return typeof tier.pitariOf === 'string' && tier.pitariOf.length > 0;
}

/** An extra prize, not a lot: the ラストワン賞, a キリ番賞, a 個人キリ番賞, a ピタリ賞 or a 天井賞. */
export function isExtraTier(
  tier: Pick<PackTier, 'isLastOne' | 'kiribanAt' | 'personalKiribanAt' | 'pitariOf' | 'ceilingAfter'>,
) {
  return (
    tier.isLastOne || isKiribanTier(tier) || isPersonalKiribanTier(tier) || isPitariTier(tier) || isCeilingTier(tier)
  );
}

/** Whether the pack's terms use the キリ番 formats (commitment v2, reveal /2) or later ones. */
export function hasKiriban(tiers: Pick<PackTier, 'kiribanAt'>[]): boolean {
  return tiers.some(isKiribanTier);
}

/** Whether the pack's terms need the v3 formats (commitment v3, reveal /3): a 個人キリ番賞 or a ピタリ賞. */
export function hasV3Extras(tiers: Pick<PackTier, 'personalKiribanAt' | 'pitariOf'>[]): boolean {
  return tiers.some((tier) => isPersonalKiribanTier(tier) || isPitariTier(tier));
}

/** The reveal format of a pack's tiers: /4 with a 天井賞, /3 with a 個人キリ番賞 or ピタリ賞, /2 with a キリ番賞, else /1. */
export function revealFormatOf(tiers: PackTier[]): RevealFormat {
  if (hasCeiling(tiers)) return REVEAL_FORMAT_CEILING;
  return hasV3Extras(tiers) ? REVEAL_FORMAT_EXTRAS : hasKiriban(tiers) ? REVEAL_FORMAT_KIRIBAN : REVEAL_FORMAT;
}

/**
 * The unshuffled lot list: the lot tiers sorted by id, each repeated `quantity` times; extra prizes (the
 * last-one, キリ番, 個人キリ番, ピタリ and 天井 tiers) are not lots.
 * @example canonicalLots([{ id: 'b', quantity: 2, … }, { id: 'a', quantity: 1, … }]) // ['a', 'b', 'b']
 */
export function canonicalLots(tiers: PackTier[]): string[] {
  assertTiers(tiers);
  const lots: string[] = [];
  for (const tier of [...tiers].sort(byId)) {
    if (isExtraTier(tier)) continue;
    for (let i = 0; i < tier.quantity; i += 1) lots.push(tier.id);
  }
  return lots;
}

/** Throws unless the shuffle can run: a seed of 64 lower-case hex characters and at most MAX_LOTS lots. */
export function assertShuffleInput(seed: string, tierIds: string[]): void {
  if (!SEED_PATTERN.test(seed)) throw new CommitmentInputError('seed must be 64 lower-case hex characters');
  if (tierIds.length > MAX_LOTS) throw new CommitmentInputError(`at most ${MAX_LOTS} lots`);
}

/** The bytes of a hex string (the seed: the shuffle's HMAC key). */
export function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The HMAC message of the shuffle stream's block `counter`: SHUFFLE_LABEL's ASCII bytes, then uint32be(counter). */
export function shuffleBlockMessage(counter: number): Uint8Array<ArrayBuffer> {
  const message = new Uint8Array(SHUFFLE_LABEL.length + 4);
  message.set(utf8.encode(SHUFFLE_LABEL));
  new DataView(message.buffer).setUint32(SHUFFLE_LABEL.length, counter);
  return message;
}

/**
 * Fisher–Yates over a copy of `tierIds`: for i = n−1 … 1, j uniform in 0..i, swap. `next` gives the stream's
 * big-endian uint32 candidates; j comes from them by rejection (reject u ≥ 2³² − 2³² mod (i+1)), so no
 * position is favoured. The node and browser shuffles differ only in how they compute the stream.
 */
export function fisherYates(tierIds: string[], next: () => number): string[] {
  const lots = [...tierIds];
  const range = 0x100000000;
  for (let i = lots.length - 1; i > 0; i -= 1) {
    const bound = i + 1;
    const limit = range - (range % bound);
    let candidate = next();
    while (candidate >= limit) candidate = next();
    const j = candidate % bound;
    const swap = lots[i];
    lots[i] = lots[j];
    lots[j] = swap;
  }
  return lots;
}

/** STR: byte length of the UTF-8, a colon, the bytes; unambiguous whatever the text contains. */
function encodeString(value: string, field: string): string {
  if (typeof value !== 'string') throw new CommitmentInputError(`${field} must be a string`);
  if (LONE_SURROGATE.test(value)) throw new CommitmentInputError(`${field} is not well-formed Unicode`);
  return `${utf8.encode(value).length}:${value}`;
}

function encodeInteger(value: number, field: string): string {
  if (!isNonNegativeInteger(value)) throw new CommitmentInputError(`${field} must be a non-negative integer`);
  return String(value);
}

/**
 * The exact text whose UTF-8 bytes are hashed (records end with LF; see decision 005 for the grammar).
 * @example canonicalPackDocument(input).split('\n')[0] === 'oripa-commitment-v1'
 */
export function canonicalPackDocument(input: CommitmentInput): string {
  assertTiers(input.tiers);
  if (!SEED_PATTERN.test(input.seed)) throw new CommitmentInputError('seed must be 64 lower-case hex characters');
  if (!Array.isArray(input.lots) || input.lots.length < 1 || input.lots.length > MAX_LOTS) {
    throw new CommitmentInputError(`lots must list 1 to ${MAX_LOTS} tier ids`);
  }
  const v4 = hasCeiling(input.tiers);
  const v3 = v4 || hasV3Extras(input.tiers);
  const kiriban = v3 || hasKiriban(input.tiers);
  const records = [
    v4
      ? COMMITMENT_VERSION_CEILING
      : v3
        ? COMMITMENT_VERSION_EXTRAS
        : kiriban
          ? COMMITMENT_VERSION_KIRIBAN
          : COMMITMENT_VERSION,
    `gacha ${encodeString(input.gachaId, 'gachaId')} ${encodeString(input.title, 'title')} ${encodeInteger(input.pricePerDraw, 'pricePerDraw')} ${input.lots.length}`,
    `tiers ${input.tiers.length}`,
  ];
  for (const tier of [...input.tiers].sort(byId)) {
    // v2 (a pack with キリ番賞) adds to every tier record: the count of its キリ番 numbers, then each one.
    // v3 (a pack with 個人キリ番賞 or ピタリ賞) adds after them: the count of its personal numbers, then each
    // one, then the STR of the lot tier its ピタリ賞 rewards (0: for none). v4 (a pack with a 天井賞) adds
    // after those: its ceiling N (0 for none), the count of the lot tiers that reset it, then each one's STR.
    const numbers = isKiribanTier(tier) ? tier.kiribanAt! : [];
    const personal = isPersonalKiribanTier(tier) ? tier.personalKiribanAt! : [];
    const v3Fields = v3
      ? ` ${[personal.length, ...personal].join(' ')} ${encodeString(isPitariTier(tier) ? tier.pitariOf! : '', 'tier.pitariOf')}`
      : '';
    const hits = isCeilingTier(tier) ? tier.ceilingOf!.map((id) => encodeString(id, 'tier.ceilingOf')) : [];
    const v4Fields = v4 ? ` ${[isCeilingTier(tier) ? tier.ceilingAfter : 0, hits.length, ...hits].join(' ')}` : '';
    records.push(
      `tier ${encodeString(tier.id, 'tier.id')} ${encodeString(tier.label, 'tier.label')} ${encodeString(tier.cardName, 'tier.cardName')} ${tier.quantity} ${tier.conversionValue} ${tier.isLastOne ? 1 : 0}${kiriban ? ` ${[numbers.length, ...numbers].join(' ')}` : ''}${v3Fields}${v4Fields}`,
    );
  }
  records.push(`seed ${input.seed}`, `lots ${input.lots.length}`);
  for (const tierId of input.lots) records.push(`lot ${encodeString(tierId, 'lot')}`);
  return `${records.join('\n')}\n`;
}
