// The browser-safe half of the fairness module: the byte formats (version labels, canonical lots and the
// commitment document), the reveal file's parser and the verifier's checks with their Japanese names and
// details. No node import and no crypto: commitment.ts (node:crypto) and browser.ts (Web Crypto) compute the
// two hashes their own way and hand them to checkReveal here, so the shop, verify-pack and the pack page's
// 「このブラウザで検証する」 report the same checks, word for word. Formats: docs/decisions/005 and 027.

/** Domain-separation labels: part of the hashed bytes, so a change of format cannot collide with v1. */
export const COMMITMENT_VERSION = 'oripa-commitment-v1';
/** The document of a pack with キリ番賞 (decision 027): v1 plus each tier's キリ番 numbers. */
export const COMMITMENT_VERSION_KIRIBAN = 'oripa-commitment-v2';
export const SHUFFLE_LABEL = 'oripa-shuffle-v1';
export const MEMBER_LABEL = 'oripa-member-v1';
export const REVEAL_FORMAT = 'oripa-pack-reveal/1';
/** The reveal file of a pack with キリ番賞 (decision 027): tiers carry `kiribanAt`, draws `kiriban`. */
export const REVEAL_FORMAT_KIRIBAN = 'oripa-pack-reveal/2';
export type RevealFormat = typeof REVEAL_FORMAT | typeof REVEAL_FORMAT_KIRIBAN;
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
  /** The キリ番 numbers this draw won (format /2 only; [] when none). */
  kiriban?: number[];
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
} as const;

const SEED_PATTERN = /^[0-9a-f]{64}$/;
const HASH_PATTERN = /^[0-9a-f]{64}$/;
const MEMBER_PATTERN = /^[0-9a-f]{16}$/;
const TIER_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const utf8 = new TextEncoder();

const isNonNegativeInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isIsoTime = (value: string) => ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
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
    if (isKiribanTier(tier)) {
      if (tier.isLastOne) throw new CommitmentInputError(`tier ${tier.id}: a キリ番 tier is not the last-one tier`);
      const numbers = tier.kiribanAt!;
      if (!numbers.every((n, i) => Number.isSafeInteger(n) && n >= 1 && (i === 0 || n > numbers[i - 1])))
        throw new CommitmentInputError(`tier ${tier.id}: kiribanAt must be ascending positive integers`);
      if (tier.quantity !== numbers.length)
        throw new CommitmentInputError(`tier ${tier.id}: a キリ番 tier's quantity is the number of its numbers`);
      for (const n of numbers) {
        if (kiriban.has(n)) throw new CommitmentInputError(`キリ番 ${n} is given twice`);
        kiriban.add(n);
      }
    } else if (tier.kiribanAt !== undefined && !Array.isArray(tier.kiribanAt)) {
      throw new CommitmentInputError(`tier ${tier.id}: kiribanAt must be an array`);
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
}

/** A キリ番賞 tier: one with at least one キリ番 number. */
export function isKiribanTier(tier: Pick<PackTier, 'kiribanAt'>): boolean {
  return Array.isArray(tier.kiribanAt) && tier.kiribanAt.length > 0;
}

/** Whether the pack's terms use the キリ番 formats (commitment v2, reveal /2). */
export function hasKiriban(tiers: Pick<PackTier, 'kiribanAt'>[]): boolean {
  return tiers.some(isKiribanTier);
}

/**
 * The unshuffled lot list: the lot tiers sorted by id, each repeated `quantity` times; the last-one and キリ番 tiers are not lots.
 * @example canonicalLots([{ id: 'b', quantity: 2, … }, { id: 'a', quantity: 1, … }]) // ['a', 'b', 'b']
 */
export function canonicalLots(tiers: PackTier[]): string[] {
  assertTiers(tiers);
  const lots: string[] = [];
  for (const tier of [...tiers].sort(byId)) {
    if (tier.isLastOne || isKiribanTier(tier)) continue;
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
  const kiriban = hasKiriban(input.tiers);
  const records = [
    kiriban ? COMMITMENT_VERSION_KIRIBAN : COMMITMENT_VERSION,
    `gacha ${encodeString(input.gachaId, 'gachaId')} ${encodeString(input.title, 'title')} ${encodeInteger(input.pricePerDraw, 'pricePerDraw')} ${input.lots.length}`,
    `tiers ${input.tiers.length}`,
  ];
  for (const tier of [...input.tiers].sort(byId)) {
    // v2 (a pack with キリ番賞) adds to every tier record: the count of its キリ番 numbers, then each one.
    const numbers = isKiribanTier(tier) ? tier.kiribanAt! : [];
    records.push(
      `tier ${encodeString(tier.id, 'tier.id')} ${encodeString(tier.label, 'tier.label')} ${encodeString(tier.cardName, 'tier.cardName')} ${tier.quantity} ${tier.conversionValue} ${tier.isLastOne ? 1 : 0}${kiriban ? ` ${[numbers.length, ...numbers].join(' ')}` : ''}`,
    );
  }
  records.push(`seed ${input.seed}`, `lots ${input.lots.length}`);
  for (const tierId of input.lots) records.push(`lot ${encodeString(tierId, 'lot')}`);
  return `${records.join('\n')}\n`;
}

export type ParseResult = { ok: true; reveal: PackReveal } | { ok: false; errors: string[] };

/**
 * Checks the reveal file's shape (types and field names, not its truth: that is verifyReveal's job).
 * Errors are Japanese, each naming the field; at most 20 are listed.
 * @example const parsed = parsePackReveal(JSON.parse(text)); if (!parsed.ok) console.error(parsed.errors.join('\n'));
 */
export function parsePackReveal(value: unknown): ParseResult {
  const errors: string[] = [];
  const fail = (path: string, message: string) => {
    if (errors.length < 20) errors.push(`${path}: ${message}`);
    else if (errors.length === 20) errors.push('…（以降は省略）');
  };
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const string = (v: unknown, path: string) => typeof v === 'string' || fail(path, '文字列ではありません');
  const integer = (v: unknown, path: string) => Number.isSafeInteger(v) || fail(path, '整数ではありません');
  const boolean = (v: unknown, path: string) => typeof v === 'boolean' || fail(path, '真偽値ではありません');

  if (!isObject(value)) return { ok: false, errors: ['ファイルの中身が JSON オブジェクトではありません'] };
  if (value.format !== REVEAL_FORMAT && value.format !== REVEAL_FORMAT_KIRIBAN) {
    return {
      ok: false,
      errors: [
        `format: "${REVEAL_FORMAT}" でも "${REVEAL_FORMAT_KIRIBAN}" でもありません（${JSON.stringify(value.format) ?? 'なし'}）`,
      ],
    };
  }
  const v2 = value.format === REVEAL_FORMAT_KIRIBAN;
  const integers = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((n: unknown, k) => integer(n, `${path}[${k}]`));
    else fail(path, '配列ではありません');
  };
  if (isObject(value.gacha)) {
    string(value.gacha.id, 'gacha.id');
    string(value.gacha.title, 'gacha.title');
    integer(value.gacha.pricePerDraw, 'gacha.pricePerDraw');
    integer(value.gacha.totalLots, 'gacha.totalLots');
  } else fail('gacha', 'オブジェクトではありません');
  if (Array.isArray(value.tiers)) {
    value.tiers.forEach((tier: unknown, i) => {
      const path = `tiers[${i}]`;
      if (!isObject(tier)) return fail(path, 'オブジェクトではありません');
      string(tier.id, `${path}.id`);
      string(tier.label, `${path}.label`);
      string(tier.cardName, `${path}.cardName`);
      integer(tier.quantity, `${path}.quantity`);
      integer(tier.conversionValue, `${path}.conversionValue`);
      boolean(tier.isLastOne, `${path}.isLastOne`);
      if (tier.kiribanAt !== undefined) {
        if (v2) integers(tier.kiribanAt, `${path}.kiribanAt`);
        else fail(`${path}.kiribanAt`, `キリ番は "${REVEAL_FORMAT_KIRIBAN}" の項目です`);
      }
    });
  } else fail('tiers', '配列ではありません');
  string(value.commitment, 'commitment');
  string(value.committedAt, 'committedAt');
  string(value.seed, 'seed');
  string(value.revealedAt, 'revealedAt');
  if (Array.isArray(value.lots)) {
    for (let i = 0; i < value.lots.length; i += 1) string(value.lots[i], `lots[${i}]`);
  } else fail('lots', '配列ではありません');
  if (Array.isArray(value.draws)) {
    value.draws.forEach((draw: unknown, i) => {
      const path = `draws[${i}]`;
      if (!isObject(draw)) return fail(path, 'オブジェクトではありません');
      integer(draw.drawNo, `${path}.drawNo`);
      string(draw.at, `${path}.at`);
      string(draw.member, `${path}.member`);
      boolean(draw.lastOne, `${path}.lastOne`);
      if (v2) integers(draw.kiriban, `${path}.kiriban`);
      else if (draw.kiriban !== undefined) fail(`${path}.kiriban`, `キリ番は "${REVEAL_FORMAT_KIRIBAN}" の項目です`);
      if (Array.isArray(draw.positions))
        draw.positions.forEach((p: unknown, k) => integer(p, `${path}.positions[${k}]`));
      else fail(`${path}.positions`, '配列ではありません');
    });
  } else fail('draws', '配列ではありません');
  return errors.length > 0 ? { ok: false, errors } : { ok: true, reveal: value as unknown as PackReveal };
}

const check = (name: string, problems: string[], okDetail: string): RevealCheck =>
  problems.length === 0
    ? { name, ok: true, detail: okDetail }
    : {
        name,
        ok: false,
        detail:
          problems.length > 5
            ? `${problems.slice(0, 5).join('／')}／ほか ${problems.length - 5} 件`
            : problems.join('／'),
      };

const shortHash = (hash: string) => (hash.length > 16 ? `${hash.slice(0, 16)}…` : hash);

/** A computation that either gave its value or threw (the message is shown in the check's detail). */
export type Attempt<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * What checkReveal needs hashed, computed by the caller with its own crypto: the commitment recomputed from
 * commitmentInputOf(reveal), and the seed's shuffle of canonicalLots(reveal.tiers) (null when the seed is not
 * 64 lower-case hex characters: then no shuffle is attempted).
 */
export interface RecomputedHashes {
  commitment: Attempt<string>;
  order: Attempt<string[]> | null;
}

/** The terms, seed and lots of a reveal as the commitment document takes them. */
export function commitmentInputOf(reveal: PackReveal): CommitmentInput {
  const { gacha, tiers, seed, lots } = reveal;
  return { gachaId: gacha.id, title: gacha.title, pricePerDraw: gacha.pricePerDraw, tiers, seed, lots };
}

/** Whether the seed is 64 lower-case hex characters, the only shape the shuffle accepts. */
export const isSeed = (seed: string) => SEED_PATTERN.test(seed);

/** The verification of a file whose shape parsePackReveal refused: the one failed check, every error named. */
export function shapeFailure(errors: string[]): RevealVerification {
  return { ok: false, checks: [{ name: CHECK_NAMES.shape, ok: false, detail: errors.join('／') }] };
}

/**
 * The verifier's checks over a parsed reveal, given its recomputed hashes: the commitment, that the order came
 * from the seed, the tier counts, the draw log, the ラストワン賞, the totals and the キリ番賞. Never throws;
 * `ok` is true only when every check passes. Called by verifyReveal (node) and verifyRevealInBrowser alike.
 * @example checkReveal(parsed.reveal, { commitment: { ok: true, value: hash }, order: { ok: true, value: lots } })
 */
export function checkReveal(reveal: PackReveal, recomputed: RecomputedHashes): RevealVerification {
  const { gacha, tiers, seed, lots, draws } = reveal;
  const checks: RevealCheck[] = [];
  const totalLots = lots.length;

  // (1) The published hash over the revealed terms, tiers, seed and lots.
  {
    const problems: string[] = [];
    if (!HASH_PATTERN.test(reveal.commitment))
      problems.push('公開されたコミットメントが64桁の小文字16進数ではありません');
    if (!recomputed.commitment.ok) problems.push(`再計算できません（${recomputed.commitment.message}）`);
    else if (problems.length === 0 && recomputed.commitment.value !== reveal.commitment) {
      problems.push(
        `再計算値 ${shortHash(recomputed.commitment.value)} が公開値 ${shortHash(reveal.commitment)} と一致しません`,
      );
    }
    checks.push(
      check(CHECK_NAMES.commitment, problems, `公開値 ${shortHash(reveal.commitment)} と再計算値が一致しました`),
    );
  }

  // (2) The order is the seed's shuffle of the canonical list: nobody arranged it by hand.
  {
    const problems: string[] = [];
    if (!isSeed(seed) || recomputed.order === null) problems.push('シードが64桁の小文字16進数ではありません');
    else if (!recomputed.order.ok) problems.push(`並びを再現できません（${recomputed.order.message}）`);
    else {
      const expected = recomputed.order.value;
      if (expected.length !== lots.length)
        problems.push(`シードから求めた口数 ${expected.length} と公開された口数 ${lots.length} が違います`);
      else {
        const first = expected.findIndex((tierId, i) => tierId !== lots[i]);
        if (first >= 0)
          problems.push(
            `${first + 1} 番目の口がシードから求めた並びと違います（${lots[first]}、正しくは ${expected[first]}）`,
          );
      }
    }
    checks.push(check(CHECK_NAMES.order, problems, `${totalLots} 口の並びがシードからの並べ替えと一致しました`));
  }

  // (3) Each lot tier's quantity equals its count in the lot list; the last-one tier is one prize, not a lot,
  // and a キリ番 tier one prize per number, not a lot either.
  const kiribanNumbers = new Map<number, string>();
  {
    const problems: string[] = [];
    const counts = new Map<string, number>();
    for (const tierId of lots) counts.set(tierId, (counts.get(tierId) ?? 0) + 1);
    const seen = new Set<string>();
    const lastOneTiers = tiers.filter((tier) => tier.isLastOne && !isKiribanTier(tier));
    if (lastOneTiers.length > 1) problems.push(`ラストワン賞の賞が ${lastOneTiers.length} 件あります（1 件まで）`);
    for (const tier of tiers) {
      if (seen.has(tier.id)) problems.push(`賞 ${tier.id} が重複しています`);
      seen.add(tier.id);
      if (!TIER_ID_PATTERN.test(tier.id)) problems.push(`賞の id ${JSON.stringify(tier.id)} が使えない文字を含みます`);
      if (tier.quantity < 1) problems.push(`賞 ${tier.id} の数量 ${tier.quantity} が 1 未満です`);
      if (tier.conversionValue < 0) problems.push(`賞 ${tier.id} の交換価値が負です`);
      const count = counts.get(tier.id) ?? 0;
      if (isKiribanTier(tier)) {
        const numbers = tier.kiribanAt!;
        if (tier.isLastOne) problems.push(`キリ番賞 ${tier.id} がラストワン賞にもなっています`);
        if (tier.quantity !== numbers.length)
          problems.push(`キリ番賞 ${tier.id} の数量 ${tier.quantity} がキリ番の数 ${numbers.length} と違います`);
        if (count > 0) problems.push(`キリ番賞 ${tier.id} が口の中に ${count} 口あります`);
        numbers.forEach((n, i) => {
          if (n < 1 || n >= totalLots) problems.push(`キリ番 ${n} が 1〜${totalLots - 1} の範囲外です`);
          if (i > 0 && n <= numbers[i - 1]) problems.push(`キリ番賞 ${tier.id} のキリ番が昇順ではありません`);
          if (kiribanNumbers.has(n)) problems.push(`キリ番 ${n} が二度指定されています`);
          kiribanNumbers.set(n, tier.id);
        });
      } else if (tier.isLastOne) {
        if (tier.quantity !== 1) problems.push(`ラストワン賞 ${tier.id} の数量が 1 ではありません（${tier.quantity}）`);
        if (count > 0) problems.push(`ラストワン賞 ${tier.id} が口の中に ${count} 口あります`);
      } else if (count !== tier.quantity) {
        problems.push(`賞 ${tier.id} の数量 ${tier.quantity} に対し口は ${count} 口です`);
      }
    }
    for (const [tierId, count] of counts) {
      if (!seen.has(tierId)) problems.push(`賞の一覧にない ${JSON.stringify(tierId)} の口が ${count} 口あります`);
    }
    const lotTiers = tiers.filter((tier) => !tier.isLastOne && !isKiribanTier(tier)).length;
    const extras = [lastOneTiers.length === 1 ? 'ラストワン賞' : '', kiribanNumbers.size > 0 ? 'キリ番賞' : '']
      .filter(Boolean)
      .join('・');
    checks.push(
      check(
        CHECK_NAMES.tiers,
        problems,
        `${lotTiers} 種類の賞の数量が口の一覧と一致しました${extras ? `（${extras}は口に含まれません）` : ''}`,
      ),
    );
  }

  // (4) The log: numbered 1..D in time order within the sale, each position 1..N received at most once.
  const drawnBy = new Int32Array(totalLots + 1); // 1 + index of the draw that received each position, 0 = undrawn
  let positionEntries = 0;
  let drawsOutOfOrder = 0;
  {
    const problems: string[] = [];
    const committedAt = Date.parse(reveal.committedAt);
    const revealedAt = Date.parse(reveal.revealedAt);
    if (!isIsoTime(reveal.committedAt))
      problems.push(`committedAt ${JSON.stringify(reveal.committedAt)} が ISO 8601 の日時ではありません`);
    if (!isIsoTime(reveal.revealedAt))
      problems.push(`revealedAt ${JSON.stringify(reveal.revealedAt)} が ISO 8601 の日時ではありません`);
    else if (committedAt > revealedAt) problems.push('公開日時がコミットメントの日時より前です');
    let previousAt = -Infinity;
    let lowestUndrawn = 1;
    draws.forEach((draw, index) => {
      const label = `抽選 ${draw.drawNo}`;
      if (draw.drawNo !== index + 1)
        problems.push(`${index + 1} 件目の抽選番号が ${draw.drawNo} です（1 から順に連番）`);
      if (!MEMBER_PATTERN.test(draw.member)) problems.push(`${label} の会員が匿名化された16桁の16進数ではありません`);
      const at = Date.parse(draw.at);
      if (!isIsoTime(draw.at))
        problems.push(`${label} の日時 ${JSON.stringify(draw.at)} が ISO 8601 の日時ではありません`);
      else {
        if (at < previousAt) problems.push(`${label} の日時が前の抽選より前です`);
        if (at < committedAt) problems.push(`${label} がコミットメントの公開より前です`);
        if (at > revealedAt) problems.push(`${label} がシードの公開より後です`);
        previousAt = at;
      }
      let maxPosition = 0;
      for (const position of draw.positions) {
        positionEntries += 1;
        if (position < 1 || position > totalLots) {
          problems.push(`${label} の位置 ${position} が 1〜${totalLots} の範囲外です`);
          continue;
        }
        if (drawnBy[position] !== 0)
          problems.push(
            `位置 ${position} が抽選 ${draws[drawnBy[position] - 1].drawNo} と ${draw.drawNo} で二度引かれています`,
          );
        else drawnBy[position] = index + 1;
        maxPosition = Math.max(maxPosition, position);
      }
      // In order ⇔ it received the lowest undrawn positions ⇔ every position up to its highest is now drawn.
      while (lowestUndrawn <= totalLots && drawnBy[lowestUndrawn] !== 0) lowestUndrawn += 1;
      if (draw.positions.length > 0 && lowestUndrawn < maxPosition) drawsOutOfOrder += 1;
    });
    checks.push(
      check(
        CHECK_NAMES.drawLog,
        problems,
        `${draws.length} 回の抽選が時刻順に並び、どの位置も二度引かれていません（先頭から順に払い出されなかった抽選 ${drawsOutOfOrder} 回）`,
      ),
    );
  }

  // (5) Sold out ⇔ every position drawn; then exactly the last draw that received lots took the ラストワン賞.
  let drawnLots = 0;
  for (let position = 1; position <= totalLots; position += 1) if (drawnBy[position] !== 0) drawnLots += 1;
  const soldOut = totalLots > 0 && drawnLots === totalLots;
  {
    const problems: string[] = [];
    const hasLastOneTier = tiers.some((tier) => tier.isLastOne);
    const winners = draws.filter((draw) => draw.lastOne);
    const finalDraw = [...draws].reverse().find((draw) => draw.positions.length > 0);
    let okDetail: string;
    if (!hasLastOneTier) {
      if (winners.length > 0)
        problems.push(`ラストワン賞のない口なのに抽選 ${winners.map((d) => d.drawNo).join('、')} が受け取っています`);
      okDetail = 'ラストワン賞はありません';
    } else if (!soldOut) {
      if (winners.length > 0)
        problems.push(
          `完売していないのに抽選 ${winners.map((d) => d.drawNo).join('、')} がラストワン賞を受け取っています`,
        );
      okDetail = '完売していないため、ラストワン賞は誰にも渡っていません';
    } else {
      if (winners.length !== 1)
        problems.push(`完売した口でラストワン賞を受け取った抽選が ${winners.length} 件です（1 件のはず）`);
      else if (winners[0] !== finalDraw)
        problems.push(
          `ラストワン賞は最後の口を引いた抽選 ${finalDraw?.drawNo} ではなく抽選 ${winners[0].drawNo} に渡っています`,
        );
      okDetail = `最後の口を引いた抽選 ${finalDraw?.drawNo} がラストワン賞を受け取りました`;
    }
    checks.push(check(CHECK_NAMES.lastOne, problems, okDetail));
  }

  // (6) Published total = lots listed = positions in the log + positions never drawn.
  const undrawnLots = totalLots - drawnLots;
  {
    const problems: string[] = [];
    if (gacha.totalLots !== totalLots) problems.push(`総口数 ${gacha.totalLots} と口の一覧 ${totalLots} 口が違います`);
    if (positionEntries + undrawnLots !== gacha.totalLots) {
      problems.push(
        `引かれた口 ${positionEntries} と残り ${undrawnLots} の合計が総口数 ${gacha.totalLots} になりません`,
      );
    }
    checks.push(
      check(
        CHECK_NAMES.totals,
        problems,
        `引かれた口 ${positionEntries} ＋ 残り ${undrawnLots} ＝ 総口数 ${gacha.totalLots}`,
      ),
    );
  }

  // (7) キリ番賞 (format /2): the draws in log order hold lots 1, 2, 3 … of the sale; number K went to the
  // draw whose lots include the Kth, exactly once, and to nobody while fewer than K lots were sold.
  let kiribanReached = 0;
  if (reveal.format === REVEAL_FORMAT_KIRIBAN || kiribanNumbers.size > 0) {
    const problems: string[] = [];
    const holder = new Map<number, number>(); // K → drawNo that must hold it
    let sold = 0;
    for (const draw of draws) {
      const from = sold;
      sold += draw.positions.length;
      for (const [k] of kiribanNumbers) if (k > from && k <= sold) holder.set(k, draw.drawNo);
    }
    const awarded = new Map<number, number[]>(); // K → drawNos that claim it
    for (const draw of draws) {
      for (const k of draw.kiriban ?? []) {
        if (!kiribanNumbers.has(k)) problems.push(`抽選 ${draw.drawNo} がキリ番賞にない ${k} を受け取っています`);
        awarded.set(k, [...(awarded.get(k) ?? []), draw.drawNo]);
      }
    }
    for (const [k] of [...kiribanNumbers].sort(([a], [b]) => a - b)) {
      const winners = awarded.get(k) ?? [];
      const expected = holder.get(k);
      if (expected === undefined) {
        if (winners.length > 0)
          problems.push(`${k} 口目は売れていないのに抽選 ${winners.join('、')} がキリ番賞を受け取っています`);
        continue;
      }
      kiribanReached += 1;
      if (winners.length !== 1)
        problems.push(`${k} 口目のキリ番賞を受け取った抽選が ${winners.length} 件です（1 件のはず）`);
      else if (winners[0] !== expected)
        problems.push(
          `${k} 口目のキリ番賞は ${k} 口目を引いた抽選 ${expected} ではなく抽選 ${winners[0]} に渡っています`,
        );
    }
    checks.push(
      check(
        CHECK_NAMES.kiriban,
        problems,
        kiribanReached === 0
          ? `${kiribanNumbers.size} 件のキリ番にはまだ届いておらず、誰にも渡っていません`
          : `到達した ${kiribanReached} 件のキリ番賞が、それぞれその口を引いた抽選に 1 件ずつ渡りました`,
      ),
    );
  }

  return {
    ok: checks.every((c) => c.ok),
    checks,
    stats: { totalLots, drawnLots, undrawnLots, draws: draws.length, drawsOutOfOrder, soldOut, kiribanReached },
  };
}
