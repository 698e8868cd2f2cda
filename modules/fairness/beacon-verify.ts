// Verifying a beacon pack (decision 081; docs/formats/reveal-formats.md part B): the whole draw log, as
// `npm run verify-pack` and any third party do, and one draw, as the member's result page does during the
// reveal. Browser-safe and synchronous: the same code on the shop, in verify-pack and on a phone.
import { QUICKNET, verifyBeacon } from '#modules/beacon';
import { verifyReceiptSignature, receiptHash, settleDraws, settlementRound, type DrawReceipt } from './beacon-mode';
import { HASH_PATTERN, isKiribanTier, parseIsoTime, type RevealCheck } from './format';
import { parseBeaconLog, type BeaconLog, type BeaconLogEntry, type BeaconLogHead } from './beacon-log';
import {
  BEACON_CHECK_NAMES,
  acceptedMs,
  check,
  checkChain,
  checkCommitment,
  checkRounds,
  checkSettleRounds,
  checkSignatures,
  checkSlots,
  checkSource,
  checkTiers,
  factsOf,
  recomputedHash,
  recomputedHead,
  short,
  type LogFacts,
  type TrustedChain,
} from './beacon-checks';
import { checkBeacons, checkKiriban, checkLastOne, checkLots, checkRemaining } from './beacon-settlement-checks';

export interface BeaconVerifyOptions {
  /**
   * Chains whose randomness is accepted besides drand's quicknet, as drand's /info describes them (the drand
   * stand-in's in tests and examples). A chain whose key the shop could hold is never trusted by default.
   */
  trustedChains?: readonly TrustedChain[];
}

export interface BeaconLogStats {
  totalLots: number;
  heads: number;
  settledHeads: number;
  receipts: number;
  settledReceipts: number;
  settledLots: number;
  pendingReceipts: number;
  unclaimedSlots: number;
  /** Every lot settled. */
  soldOut: boolean;
  kiribanReached: number;
}

export interface BeaconLogVerification {
  ok: boolean;
  checks: RevealCheck[];
  /** Undefined when the file's shape was invalid. */
  stats?: BeaconLogStats;
}

const trustedOf = (options: BeaconVerifyOptions): TrustedChain[] => [QUICKNET, ...(options.trustedChains ?? [])];

/**
 * Every check of a beacon pack's log, in the document's order (B8): never throws; `ok` only when all pass. The
 * value is the file's JSON: one whole log, or an array of the API's pages (merged first).
 * @example const result = verifyBeaconLog(JSON.parse(text)); result.checks.filter((c) => !c.ok)
 */
export function verifyBeaconLog(value: unknown, options: BeaconVerifyOptions = {}): BeaconLogVerification {
  const parsed = parseBeaconLog(value);
  if (!parsed.ok)
    return { ok: false, checks: [{ name: BEACON_CHECK_NAMES.shape, ok: false, detail: parsed.errors.join('／') }] };
  const { log } = parsed;
  const facts = factsOf(log);
  const entries = [...log.items, ...log.pending];
  const kiriban = checkKiriban(facts);
  const checks = [
    checkCommitment(log, entries),
    checkSource(log, trustedOf(options), QUICKNET.hash),
    checkTiers(facts),
    checkSignatures(log, entries),
    checkSlots(facts),
    checkChain(facts),
    checkRounds(facts),
    checkSettleRounds(log),
    checkBeacons(log),
    checkLots(facts),
    kiriban.check,
    checkLastOne(facts),
    checkRemaining(facts),
  ];
  const settled = log.items.filter((e) => e.settled);
  const settledLots = settled.reduce((sum, e) => sum + e.receipt.slots.length, 0);
  return {
    ok: checks.every((c) => c.ok),
    checks,
    stats: {
      totalLots: facts.lots,
      heads: log.heads.length,
      settledHeads: log.heads.filter((h) => h.settled).length,
      receipts: log.items.length,
      settledReceipts: settled.length,
      settledLots,
      pendingReceipts: log.remaining.pendingReceipts,
      unclaimedSlots: log.remaining.unclaimedSlots,
      soldOut: facts.lots > 0 && settledLots === facts.lots,
      kiribanReached: kiriban.reached,
    },
  };
}

// ── One draw, on the member's phone ──────────────────────────────────────────────────────────────────

/** What the member's phone itself saw, on its own clock (Unix milliseconds); every field optional. */
export interface PhoneObservations {
  /** The receipt and signature exactly as the draw's answer gave them, kept in the page since. */
  receipt?: DrawReceipt;
  signature?: string;
  /** When the draw's answer (with the receipt) arrived. */
  receivedAt?: number;
  /** When the page first held the head that covers the receipt (fetched at close(r), before the beacon). */
  headReceivedAt?: number;
}

export interface BeaconDrawInput {
  /** The pack's log at least through the draw's head (readBeaconLog with `until: drawId`), or all of it. */
  log: BeaconLog;
  drawId: string;
  phone?: PhoneObservations;
  trustedChains?: readonly TrustedChain[];
}

export interface BeaconDrawVerification {
  ok: boolean;
  /** The receipt is in a published head (false: its round has not closed yet). */
  closed: boolean;
  /** The draw is settled (false: 抽選中; the checks of the settlement are not in `checks` yet). */
  settled: boolean;
  checks: RevealCheck[];
  /** The draw's lots (tier ids, k order) once settled and recomputed; null before. */
  lots: string[] | null;
}

const N = BEACON_CHECK_NAMES;

/**
 * The checks of one draw (decision 081, §5), for the result page during the reveal: its receipt's signature
 * (and that the log's receipt is the one the phone kept), its round, the phone's own clock (when `phone` gives
 * the times), the chain from its `after` head to its own head, the settlement round, the beacon (BLS) and its
 * lots recomputed from the log's earlier settled receipts. Never throws.
 * @example const result = verifyBeaconDraw({ log, drawId, phone: { receipt, signature, receivedAt, headReceivedAt } })
 */
export function verifyBeaconDraw(input: BeaconDrawInput): BeaconDrawVerification {
  const { log, drawId, phone = {} } = input;
  const entry = [...log.items, ...log.pending].find((e) => e.receipt.drawId === drawId);
  if (!entry) {
    const missing = check(N.chain, ['この抽選の受付票がログにありません'], '');
    return { ok: false, closed: false, settled: false, checks: [missing], lots: null };
  }
  const facts = factsOf(log);
  const checks: RevealCheck[] = [
    checkCommitment(log, [entry]),
    checkSource(log, trustedOf(input), QUICKNET.hash),
    drawSignature(log, entry, phone),
    drawRound(facts, entry),
  ];
  const round = entry.receipt.round;
  if (phone.receivedAt !== undefined) {
    const due = facts.roundTime(round);
    checks.push(
      check(
        N.receiptReceived,
        phone.receivedAt < due ? [] : [`受付票を受け取ったのがラウンド ${round} の時刻より後です（この端末の時計）`],
        `この端末はラウンド ${round} の時刻の ${Math.round((due - phone.receivedAt) / 100) / 10} 秒前に受付票を受け取りました`,
      ),
    );
  }
  const head = entry.seq !== null ? facts.headByRound.get(round) : undefined;
  if (!head) return finish(checks, false, null, null);
  checks.push(drawChain(facts, entry, head));
  const published = parseIsoTime(head.publishedAt);
  const expected = Number.isNaN(published) ? NaN : settlementRound(log.pack.beacon, round, published);
  checks.push(
    check(
      N.settleRounds,
      head.settleRound === expected
        ? []
        : [`ヘッド ${round} の精算ラウンドが ${head.settleRound} です（公開時刻から求めると ${expected}）`],
      `ヘッド ${round} はラウンド ${head.settleRound} で精算されます`,
    ),
  );
  if (phone.headReceivedAt !== undefined) {
    const due = facts.roundTime(head.settleRound);
    checks.push(
      check(
        N.headReceived,
        phone.headReceivedAt < due
          ? []
          : [`ヘッドを受け取ったのが精算ラウンド ${head.settleRound} の時刻より後です（この端末の時計）`],
        `この端末は精算ラウンド ${head.settleRound} の乱数が生まれる前にヘッドを受け取りました`,
      ),
    );
  }
  if (head.settled !== entry.settled) {
    const state = (settled: boolean) => (settled ? '精算済み' : '未精算');
    const detail = `受付票は${state(entry.settled)}、ヘッド ${round} は${state(head.settled)}です`;
    checks.push(check(N.lots, [detail], ''));
    return finish(checks, true, null, null);
  }
  if (!head.settled) return finish(checks, true, null, null);
  checks.push(drawBeacon(log, head));
  const lots = drawLots(facts, entry, head);
  checks.push(lots.check);
  return finish(checks, true, true, lots.tiers);
}

function finish(
  checks: RevealCheck[],
  closed: boolean,
  settled: true | null,
  lots: string[] | null,
): BeaconDrawVerification {
  return { ok: checks.every((c) => c.ok), closed, settled: settled === true, checks, lots };
}

function drawSignature(log: BeaconLog, entry: BeaconLogEntry, phone: PhoneObservations): RevealCheck {
  const problems: string[] = [];
  if (!verifyReceiptSignature(entry.receipt, entry.signature, log.pack.receiptKey))
    problems.push(`受付票の署名がコミットメントの鍵 ${short(log.pack.receiptKey)} で検証できません`);
  if (phone.receipt) {
    let same = false;
    try {
      same = receiptHash(phone.receipt) === recomputedHash(entry);
    } catch {
      same = false;
    }
    if (!same) problems.push('ログの受付票が、抽選の応答で受け取った受付票と違います');
  }
  if (phone.signature !== undefined && phone.signature !== entry.signature)
    problems.push('ログの署名が、抽選の応答で受け取った署名と違います');
  return check(
    N.signatures,
    problems,
    phone.receipt
      ? '受付票の署名がコミットメントの鍵で検証でき、抽選の応答で受け取った受付票と同じです'
      : '受付票の署名がコミットメントの鍵で検証できました',
  );
}

function drawRound(facts: LogFacts, entry: BeaconLogEntry): RevealCheck {
  const { log } = facts;
  const problems: string[] = [];
  const at = acceptedMs(entry);
  const { round, afterRound, afterHead } = entry.receipt;
  if (Number.isNaN(at)) problems.push('受付時刻が YYYY-MM-DDThh:mm:ss.sssZ ではありません');
  else {
    if (at < parseIsoTime(log.pack.committedAt)) problems.push('コミットメントの公開より前に受け付けられています');
    const expected = facts.targetRound(at);
    if (round !== expected) problems.push(`ラウンドが ${round} です（受付時刻から求めると ${expected}）`);
    const after = facts.headByRound.get(afterRound);
    if (afterRound !== 0 || afterHead !== '') {
      if (!after || after.head !== afterHead || afterRound >= round)
        problems.push(`直前のヘッド（ラウンド ${afterRound}）がログのヘッドにありません`);
      else if (parseIsoTime(after.publishedAt) > at) problems.push('直前のヘッドが受付より後に公開されています');
    }
    const next = log.heads.find((h) => h.round > afterRound);
    if (next && parseIsoTime(next.publishedAt) < at)
      problems.push(`受付より前にヘッド ${next.round} が公開されていたのに、直前のヘッドになっていません`);
  }
  return check(
    N.rounds,
    problems,
    `締切（ラウンドの時刻 − ${log.pack.closeMarginMs} ミリ秒）が受付より後の最初のラウンド ${round} を指しています`,
  );
}

/** The heads from the receipt's `after` head to its own, each recomputed from its receipts and linked. */
function drawChain(facts: LogFacts, entry: BeaconLogEntry, own: BeaconLogHead): RevealCheck {
  const { log, itemsByRound } = facts;
  const { afterRound } = entry.receipt;
  const problems: string[] = [];
  const from = afterRound === 0 ? 0 : log.heads.findIndex((h) => h.round === afterRound);
  const to = log.heads.indexOf(own);
  if (from < 0) problems.push(`直前のヘッド ${afterRound} がログにありません`);
  const span = from >= 0 ? log.heads.slice(from, to + 1) : [own];
  if (afterRound === 0 && span[0]?.prevHead !== '') problems.push('最初のヘッドの前のヘッドが空ではありません');
  span.forEach((h, i) => {
    if (i > 0 && h.prevHead !== span[i - 1]!.head)
      problems.push(`ヘッド ${h.round} の前のヘッドがヘッド ${span[i - 1]!.round} ではありません`);
    const entries = itemsByRound.get(h.round) ?? [];
    if (entries.length !== h.receipts || recomputedHead(h, entries) !== h.head)
      problems.push(`ヘッド ${h.round} が前のヘッドと受付票 ${entries.length} 枚から求めた値と違います`);
  });
  if (recomputedHash(entry) !== entry.hash) problems.push('受付票のハッシュが受付票の内容から求めた値と違います');
  return check(
    N.chain,
    problems,
    `直前のヘッド${afterRound === 0 ? '（なし）' : ` ${afterRound}`}からこの受付票を含むヘッド ${own.round} まで、${span.length} 個のヘッドが再計算でき、つながっています`,
  );
}

function drawBeacon(log: BeaconLog, head: BeaconLogHead): RevealCheck {
  const chain = { schemeID: log.pack.beacon.scheme, public_key: log.pack.beacon.publicKey };
  const result = head.beacon
    ? verifyBeacon(chain, head.beacon, head.settleRound)
    : ({ valid: false, detail: 'ビーコンがありません' } as const);
  return check(
    N.beacons,
    result.valid ? [] : [`ラウンド ${head.settleRound} のビーコン: ${result.detail}`],
    `ラウンド ${head.settleRound} のビーコンがコミットメントのチェーンの署名として検証できました（乱数値 ＝ 署名の SHA-256）`,
  );
}

/** The draw's lots from what the earlier settled receipts left, with its sale numbers, キリ番 and ラストワン賞. */
function drawLots(
  facts: LogFacts,
  entry: BeaconLogEntry,
  head: BeaconLogHead,
): { check: RevealCheck; tiers: string[] | null } {
  const { log, itemsByRound, lots } = facts;
  const problems: string[] = [];
  const lotTiers = log.pack.tiers.filter((t) => !t.isLastOne && !isKiribanTier(t));
  const remaining = new Map(lotTiers.map((t) => [t.id, t.quantity]));
  let sold = 0;
  for (const h of log.heads) {
    if (h.round >= head.round) break;
    if (!h.settled) problems.push(`前のヘッド ${h.round} がまだ精算されていません`);
    for (const e of itemsByRound.get(h.round) ?? []) {
      sold += e.receipt.slots.length;
      for (const tierId of e.tiers ?? []) remaining.set(tierId, (remaining.get(tierId) ?? 0) - 1);
    }
  }
  for (const [tierId, n] of remaining) if (n < 0) problems.push(`前の受付票で賞 ${tierId} が数量を超えて出ています`);
  const sameHead = itemsByRound.get(head.round) ?? [];
  const index = sameHead.indexOf(entry);
  let tiers: string[] | null = null;
  const randomness = head.beacon?.randomness.toLowerCase() ?? '';
  if (HASH_PATTERN.test(randomness) && problems.length === 0) {
    try {
      const pool = [...remaining].map(([id, n]) => ({ id, remaining: n }));
      const draws = sameHead.slice(0, index + 1).map((e) => ({ drawId: e.receipt.drawId, n: e.receipt.slots.length }));
      tiers = settleDraws(randomness, log.pack.id, pool, draws).tiers[index]!;
    } catch (error) {
      problems.push(`再計算できません（${(error as Error).message}）`);
    }
  }
  for (const e of sameHead.slice(0, index)) sold += e.receipt.slots.length;
  const n = entry.receipt.slots.length;
  if (tiers && JSON.stringify(tiers) !== JSON.stringify(entry.tiers))
    problems.push(`結果が ${JSON.stringify(entry.tiers)} です（再計算では ${JSON.stringify(tiers)}）`);
  const numbers = Array.from({ length: n }, (_, j) => sold + j + 1);
  if (JSON.stringify(entry.saleNumbers) !== JSON.stringify(numbers))
    problems.push(`販売順が ${JSON.stringify(entry.saleNumbers)} です（${sold + 1}〜${sold + n} のはず）`);
  const kiriban = log.pack.tiers
    .flatMap((t) => (isKiribanTier(t) ? t.kiribanAt! : []))
    .filter((k) => k > sold && k <= sold + n)
    .sort((a, b) => a - b);
  if (JSON.stringify([...entry.kiriban].sort((a, b) => a - b)) !== JSON.stringify(kiriban))
    problems.push(`キリ番賞が ${JSON.stringify(entry.kiriban)} です（${JSON.stringify(kiriban)} のはず）`);
  const lastOne = log.pack.tiers.some((t) => t.isLastOne && !isKiribanTier(t)) && sold + n === lots;
  if (entry.lastOne !== lastOne)
    problems.push(lastOne ? 'ラストワン賞がありません' : 'ラストワン賞を受け取るはずがありません');
  return {
    check: check(
      N.lots,
      problems,
      `前に精算された ${sold} 口の残りから、ラウンド ${head.settleRound} の乱数で求めた結果（${sold + 1}〜${sold + n} 口目）と一致しました`,
    ),
    tiers: problems.length === 0 ? tiers : null,
  };
}
