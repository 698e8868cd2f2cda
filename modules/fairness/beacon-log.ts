// The public draw log of a beacon pack (`oripa-beacon-log/1`, decision 081; docs/formats/reveal-formats.md part
// B): its JSON shape, the parser that checks the shape (not the truth: beacon-verify.ts does that), the merge of
// the API's pages into one log, a reader that fetches every page, and the remaining lots with their 還元率, the
// one computation the shop's reader and the verifiers share. Browser-safe: no node import, no crypto.
import type { PackTier } from './format';
import type { BeaconSourceTerms, DrawReceipt, TierCertificate } from './beacon-mode';

export const BEACON_LOG_FORMAT = 'oripa-beacon-log/1';
/** Receipts not yet in a head are listed on the last page up to this many (their count and lots always). */
export const BEACON_LOG_PENDING_LIMIT = 100;
/** The most receipts one page of the API holds (the result page reads the log this many at a time). */
export const BEACON_LOG_MAX_PAGE = 500;

/** What the pack committed to (oripa-commitment-b1's fields) and the close margin it was published with. */
export interface BeaconLogPack {
  id: string;
  title: string;
  pricePerDraw: number;
  totalLots: number;
  status: string;
  commitment: string;
  /** When the commitment was published: no receipt is accepted before it. */
  committedAt: string;
  tiers: PackTier[];
  beacon: BeaconSourceTerms;
  receiptKey: string;
  certificates: TierCertificate[];
  /** close(r) = time(r) − closeMarginMs: fixed at publication, not part of the commitment's bytes. */
  closeMarginMs: number;
}

/** The settling round's beacon as the shop verified it (drand's fields). */
export interface BeaconLogBeacon {
  round: number;
  signature: string;
  randomness: string;
}

/** A closed round of the pack: its head in the chain, published before the round's randomness existed. */
export interface BeaconLogHead {
  round: number;
  head: string;
  prevHead: string;
  /** The number of receipts the head covers. */
  receipts: number;
  publishedAt: string;
  settleRound: number;
  settled: boolean;
  beacon: BeaconLogBeacon | null;
}

/** One receipt in the log: what the shop signed, and once settled what it won. */
export interface BeaconLogEntry {
  /** 1, 2, 3 … in the chain's order (heads by round, then first slot); null while not yet in a head. */
  seq: number | null;
  receipt: DrawReceipt;
  /** The shop's Ed25519 signature of the receipt's document, 128 hex characters. */
  signature: string;
  /** SHA-256 of the receipt's document (what its head hashes). */
  hash: string;
  settled: boolean;
  /** Settled: the tier of lot k, k = 0 … n − 1 (the slots ascending); null until then. */
  tiers: string[] | null;
  /** Settled: lot k's number in the sale's settled order; null until then. */
  saleNumbers: number[] | null;
  /** The キリ番 numbers this draw won ([] until settled). */
  kiriban: number[];
  /** Whether this draw won the ラストワン賞. */
  lastOne: boolean;
}

export interface BeaconLogTierRemaining {
  tierId: string;
  quantity: number;
  /** Lots of the tier won by settled draws. */
  won: number;
  remaining: number;
  conversionValue: number;
}

/**
 * The lots still to be settled and the live 還元率 of what remains:
 * returnRatePercent = ⌊value × 1000 ÷ cost⌋ ÷ 10, value = Σ remaining × conversionValue over the lot tiers,
 * cost = lots × pricePerDraw, lots = totalLots − settledLots; null when no lot remains. The ラストワン賞 and
 * キリ番賞 are extras, not lots (as the pack page's 還元率).
 */
export interface BeaconLogRemaining {
  /** Receipts 1 … settledReceipts are settled (settlement follows the chain's order). */
  settledReceipts: number;
  settledLots: number;
  lots: number;
  /** Slots nobody has claimed yet. */
  unclaimedSlots: number;
  /** Receipts accepted but not yet in a head, and their slots. */
  pendingReceipts: number;
  pendingLots: number;
  tiers: BeaconLogTierRemaining[];
  value: number;
  cost: number;
  returnRatePercent: number | null;
}

/** One page of the log as the API answers it; a whole log is a page with every item and nextAfter null. */
export interface BeaconLogPage {
  format: typeof BEACON_LOG_FORMAT;
  generatedAt: string;
  pack: BeaconLogPack;
  /** The heads of the page's items, by round. */
  heads: BeaconLogHead[];
  /** The receipts after the page's `after`, by seq. */
  items: BeaconLogEntry[];
  /** The last page only: receipts not yet in a head, by round and first slot (at most BEACON_LOG_PENDING_LIMIT). */
  pending: BeaconLogEntry[];
  remaining: BeaconLogRemaining;
  /** The `after` of the next page; null on the last page (a tracker asks again with its last seq). */
  nextAfter: number | null;
}

export type BeaconLog = BeaconLogPage;

// ── Remaining lots and 還元率 ────────────────────────────────────────────────────────────────────────

const isLot = (tier: PackTier) => !tier.isLastOne && !(Array.isArray(tier.kiribanAt) && tier.kiribanAt.length > 0);
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * ⌊value × 1000 ÷ cost⌋ ÷ 10 (percent, one decimal, truncated as the pack page shows it), exact for any sizes;
 * null when cost is 0.
 * @example returnRatePercent(8_600, 10_000) === 86
 */
export function returnRatePercent(value: number, cost: number): number | null {
  if (cost <= 0) return null;
  return Number((BigInt(value) * 1000n) / BigInt(cost)) / 10;
}

/**
 * The remaining lots by tier and the 還元率 of what remains, from the pack's tiers and the lots settled draws
 * won (`won`: tier id → count); the slot counts as the caller read them.
 * @example remainingLots(pack, new Map([['p.B', 3]]), { settledReceipts: 1, unclaimedSlots: 5, pendingReceipts: 0, pendingLots: 0 })
 */
export function remainingLots(
  pack: Pick<BeaconLogPack, 'tiers' | 'pricePerDraw' | 'totalLots'>,
  won: ReadonlyMap<string, number>,
  counts: { settledReceipts: number; unclaimedSlots: number; pendingReceipts: number; pendingLots: number },
): BeaconLogRemaining {
  const tiers = [...pack.tiers]
    .filter(isLot)
    .sort(byId)
    .map((t) => {
      const taken = won.get(t.id) ?? 0;
      return {
        tierId: t.id,
        quantity: t.quantity,
        won: taken,
        remaining: t.quantity - taken,
        conversionValue: t.conversionValue,
      };
    });
  const settledLots = [...won.values()].reduce((sum, n) => sum + n, 0);
  const lots = pack.totalLots - settledLots;
  const value = tiers.reduce((sum, t) => sum + t.remaining * t.conversionValue, 0);
  const cost = lots * pack.pricePerDraw;
  return {
    settledReceipts: counts.settledReceipts,
    settledLots,
    lots,
    unclaimedSlots: counts.unclaimedSlots,
    pendingReceipts: counts.pendingReceipts,
    pendingLots: counts.pendingLots,
    tiers,
    value,
    cost,
    returnRatePercent: returnRatePercent(value, cost),
  };
}

// ── The shape ────────────────────────────────────────────────────────────────────────────────────────

export type BeaconLogParse = { ok: true; log: BeaconLog } | { ok: false; errors: string[] };

type Fail = (path: string, message: string) => void;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function shapeReader(fail: Fail) {
  const string = (v: unknown, path: string) => typeof v === 'string' || fail(path, '文字列ではありません');
  const integer = (v: unknown, path: string) => Number.isSafeInteger(v) || fail(path, '整数ではありません');
  const boolean = (v: unknown, path: string) => typeof v === 'boolean' || fail(path, '真偽値ではありません');
  const nullable = (v: unknown, path: string, read: (v: unknown, path: string) => unknown) =>
    v === null || read(v, path);
  const array = (v: unknown, path: string, read: (v: unknown, path: string) => unknown) => {
    if (!Array.isArray(v)) return fail(path, '配列ではありません');
    v.forEach((item, i) => read(item, `${path}[${i}]`));
  };
  const object = (v: unknown, path: string, read: (o: Record<string, unknown>) => void) =>
    isObject(v) ? read(v) : fail(path, 'オブジェクトではありません');
  return { string, integer, boolean, nullable, array, object };
}

function readPack(v: unknown, fail: Fail) {
  const r = shapeReader(fail);
  r.object(v, 'pack', (p) => {
    for (const key of ['id', 'title', 'status', 'commitment', 'committedAt', 'receiptKey'])
      r.string(p[key], `pack.${key}`);
    for (const key of ['pricePerDraw', 'totalLots', 'closeMarginMs']) r.integer(p[key], `pack.${key}`);
    r.array(p.tiers, 'pack.tiers', (t, path) =>
      r.object(t, path, (tier) => {
        for (const key of ['id', 'label', 'cardName']) r.string(tier[key], `${path}.${key}`);
        for (const key of ['quantity', 'conversionValue']) r.integer(tier[key], `${path}.${key}`);
        r.boolean(tier.isLastOne, `${path}.isLastOne`);
        if (tier.kiribanAt !== undefined) r.array(tier.kiribanAt, `${path}.kiribanAt`, r.integer);
      }),
    );
    r.object(p.beacon, 'pack.beacon', (b) => {
      for (const key of ['chainHash', 'scheme', 'publicKey']) r.string(b[key], `pack.beacon.${key}`);
      for (const key of ['genesisTime', 'period']) r.integer(b[key], `pack.beacon.${key}`);
    });
    r.array(p.certificates, 'pack.certificates', (c, path) =>
      r.object(c, path, (cert) => {
        for (const key of ['tierId', 'company', 'number', 'photoSha256']) r.string(cert[key], `${path}.${key}`);
      }),
    );
  });
}

function readHead(v: unknown, path: string, fail: Fail) {
  const r = shapeReader(fail);
  r.object(v, path, (h) => {
    for (const key of ['round', 'receipts', 'settleRound']) r.integer(h[key], `${path}.${key}`);
    for (const key of ['head', 'prevHead', 'publishedAt']) r.string(h[key], `${path}.${key}`);
    r.boolean(h.settled, `${path}.settled`);
    r.nullable(h.beacon, `${path}.beacon`, (b) =>
      r.object(b, `${path}.beacon`, (beacon) => {
        r.integer(beacon.round, `${path}.beacon.round`);
        r.string(beacon.signature, `${path}.beacon.signature`);
        r.string(beacon.randomness, `${path}.beacon.randomness`);
      }),
    );
  });
}

function readEntry(v: unknown, path: string, fail: Fail) {
  const r = shapeReader(fail);
  r.object(v, path, (e) => {
    r.nullable(e.seq, `${path}.seq`, r.integer);
    r.object(e.receipt, `${path}.receipt`, (receipt) => {
      for (const key of ['gachaId', 'commitment', 'drawId', 'member', 'acceptedAt', 'afterHead'])
        r.string(receipt[key], `${path}.receipt.${key}`);
      for (const key of ['round', 'afterRound']) r.integer(receipt[key], `${path}.receipt.${key}`);
      r.array(receipt.slots, `${path}.receipt.slots`, r.integer);
    });
    r.string(e.signature, `${path}.signature`);
    r.string(e.hash, `${path}.hash`);
    r.boolean(e.settled, `${path}.settled`);
    r.nullable(e.tiers, `${path}.tiers`, (t, p) => r.array(t, p, r.string));
    r.nullable(e.saleNumbers, `${path}.saleNumbers`, (t, p) => r.array(t, p, r.integer));
    r.array(e.kiriban, `${path}.kiriban`, r.integer);
    r.boolean(e.lastOne, `${path}.lastOne`);
  });
}

function readRemaining(v: unknown, fail: Fail) {
  const r = shapeReader(fail);
  r.object(v, 'remaining', (m) => {
    for (const key of [
      'settledReceipts',
      'settledLots',
      'lots',
      'unclaimedSlots',
      'pendingReceipts',
      'pendingLots',
      'value',
      'cost',
    ])
      r.integer(m[key], `remaining.${key}`);
    r.nullable(m.returnRatePercent, 'remaining.returnRatePercent', (n, path) =>
      typeof n === 'number' && Number.isFinite(n) ? true : fail(path, '数ではありません'),
    );
    r.array(m.tiers, 'remaining.tiers', (t, path) =>
      r.object(t, path, (tier) => {
        r.string(tier.tierId, `${path}.tierId`);
        for (const key of ['quantity', 'won', 'remaining', 'conversionValue']) r.integer(tier[key], `${path}.${key}`);
      }),
    );
  });
}

/** Checks one page's (or one whole log's) shape; errors are Japanese, each naming the field, at most 20. */
function parsePage(value: unknown, label = ''): BeaconLogParse {
  const errors: string[] = [];
  const fail: Fail = (path, message) => {
    if (errors.length < 20) errors.push(`${label}${path}: ${message}`);
    else if (errors.length === 20) errors.push('…（以降は省略）');
  };
  if (!isObject(value)) return { ok: false, errors: [`${label}JSON オブジェクトではありません`] };
  if (value.format !== BEACON_LOG_FORMAT)
    return {
      ok: false,
      errors: [`${label}format: "${BEACON_LOG_FORMAT}" ではありません（${JSON.stringify(value.format) ?? 'なし'}）`],
    };
  const r = shapeReader(fail);
  r.string(value.generatedAt, 'generatedAt');
  readPack(value.pack, fail);
  r.array(value.heads, 'heads', (h, path) => readHead(h, path, fail));
  r.array(value.items, 'items', (e, path) => readEntry(e, path, fail));
  r.array(value.pending, 'pending', (e, path) => readEntry(e, path, fail));
  readRemaining(value.remaining, fail);
  r.nullable(value.nextAfter, 'nextAfter', r.integer);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, log: value as unknown as BeaconLog };
}

/** Whether a JSON value claims to be a beacon log: a page, or an array of pages (the verifier's dispatch). */
export function isBeaconLogJson(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return isObject(first) && first.format === BEACON_LOG_FORMAT;
}

const staleError = (stale: number[]) =>
  `ページの取得中に精算が進みました（受付票 ${stale[0]}〜${stale[stale.length - 1]}）: after=${stale[0]! - 1} から取り直してください`;

/**
 * A whole log from a file: one object (a page holding every item, nextAfter null) or an array of the API's
 * pages, merged (mergeBeaconLogPages). Refused, with Japanese reasons, when a field has the wrong type, the
 * last page says more follow, or a page was read before a settlement that a later page shows.
 * @example const parsed = parseBeaconLog(JSON.parse(text)); if (parsed.ok) verifyBeaconLog(parsed.log)
 */
export function parseBeaconLog(value: unknown): BeaconLogParse {
  const pages = Array.isArray(value) ? value : [value];
  if (pages.length === 0) return { ok: false, errors: ['ページが 1 つもありません'] };
  const parsed: BeaconLogPage[] = [];
  for (const [i, page] of pages.entries()) {
    const one = parsePage(page, Array.isArray(value) ? `[${i}] ` : '');
    if (!one.ok) return one;
    parsed.push(one.log);
  }
  const { log, stale } = mergeBeaconLogPages(parsed);
  const errors: string[] = [];
  if (log.nextAfter !== null)
    errors.push(`nextAfter: 続きのページがあります（after=${log.nextAfter} から取得して加えてください）`);
  if (stale.length > 0) errors.push(staleError(stale));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, log };
}

// ── Pages into one log ───────────────────────────────────────────────────────────────────────────────

/**
 * The API's pages as one log: items by seq and heads by round, a later page's copy replacing an earlier one's
 * in its place (the pages in the order they were fetched: the log's order is theirs); the pack, pending receipts, remaining counts and nextAfter from
 * the page fetched last. `stale` lists the seqs that page counts as settled but whose copy in the log is not
 * (the page holding them was fetched before their settlement): fetch again from the first and merge.
 * @example const { log, stale } = mergeBeaconLogPages([first, second])
 */
export function mergeBeaconLogPages(pages: readonly BeaconLogPage[]): { log: BeaconLog; stale: number[] } {
  const last = pages[pages.length - 1]!;
  const items = new Map<number, BeaconLogEntry>();
  const heads = new Map<number, BeaconLogHead>();
  for (const page of pages) {
    for (const item of page.items) if (item.seq !== null) items.set(item.seq, item);
    for (const head of page.heads) heads.set(head.round, head);
  }
  // In the order the pages give them (a later copy keeps its place): the verifier checks that order.
  const merged = [...items.values()];
  const stale = merged
    .filter((e) => e.seq! <= last.remaining.settledReceipts && (!e.settled || !heads.get(e.receipt.round)?.settled))
    .map((e) => e.seq!);
  return {
    log: {
      ...last,
      heads: [...heads.values()],
      items: merged,
    },
    stale,
  };
}

/** Answers the page after `after` (the caller's fetch of GET /api/v1/gachas/{gachaId}/draw-log). */
export type BeaconLogPageReader = (after: number) => Promise<unknown>;

/**
 * Reads a pack's log page by page and merges it, fetching again from the first stale receipt while settlement
 * moves under it (at most `rounds` times). `until` (a draw id) stops once that draw's head is complete: the
 * result page needs the log only that far, and the answer's nextAfter then says where it stopped. `ahead` pages
 * are asked for at once (default 1, one at a time): every page before the settled receipts' count is full, so
 * a full page's length gives the next pages' `after`; a page is used only for the `after` it answers.
 * @example const parsed = await readBeaconLog((after) => fetch(`/api/v1/gachas/${id}/draw-log?after=${after}&limit=${BEACON_LOG_MAX_PAGE}`).then((r) => r.json()), { ahead: 4 })
 */
export async function readBeaconLog(
  readPage: BeaconLogPageReader,
  options: { until?: string; rounds?: number; ahead?: number } = {},
): Promise<BeaconLogParse> {
  const pages: BeaconLogPage[] = [];
  let after = 0;
  let stale: number[] = [];
  for (let round = 0; round < (options.rounds ?? 3); round += 1) {
    let target: BeaconLogEntry | undefined;
    const asked = new Map<number, Promise<unknown>>();
    const ask = (from: number) => {
      let page = asked.get(from);
      if (!page) {
        page = readPage(from);
        // A page asked ahead and never used (the draw's head came first) must not be an unhandled rejection.
        page.catch(() => undefined);
        asked.set(from, page);
      }
      return page;
    };
    for (;;) {
      const one = parsePage(await ask(after));
      if (!one.ok) return one;
      pages.push(one.log);
      const items = one.log.items;
      target ??= options.until ? items.find((e) => e.receipt.drawId === options.until) : undefined;
      const headDone =
        target !== undefined && items.some((e) => e.seq !== null && e.receipt.round > target!.receipt.round);
      if (one.log.nextAfter === null || headDone) break;
      const length = one.log.nextAfter - after;
      after = one.log.nextAfter;
      for (let k = 1; k < (options.ahead ?? 1) && length > 0; k += 1) {
        const from = after + k * length;
        if (from + length > one.log.remaining.settledReceipts) break;
        void ask(from);
      }
    }
    const merged = mergeBeaconLogPages(pages);
    stale = merged.stale;
    if (stale.length === 0) return { ok: true, log: merged.log };
    after = stale[0]! - 1;
  }
  return { ok: false, errors: [staleError(stale)] };
}
