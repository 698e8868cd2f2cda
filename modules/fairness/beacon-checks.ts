// The checks of a beacon pack's draw log before settlement (docs/formats/reveal-formats.md part B, section B8),
// each a function answering one named check with its Japanese detail: the commitment, the randomness source,
// the tiers, the receipts' signatures, the slots, the chain of heads, the rounds and the settlement rounds; and
// what they share (names, the log's facts). The settlement's checks: beacon-settlement-checks.ts. Browser-safe.
import {
  beaconCommitment,
  headHash,
  receiptHash,
  settlementRound,
  verifyReceiptSignature,
  type BeaconPackTerms,
} from './beacon-mode';
import { HASH_PATTERN, TIER_ID_PATTERN, isKiribanTier, parseIsoTime, type PackTier, type RevealCheck } from './format';
import { type BeaconLog, type BeaconLogEntry, type BeaconLogHead } from './beacon-log';

/** The Japanese names of the checks, in the order verifyBeaconLog reports them. */
export const BEACON_CHECK_NAMES = {
  shape: 'ファイル形式',
  commitment: 'コミットメント一致',
  source: 'ビーコンの出どころ',
  tiers: '賞の数量',
  signatures: '受付票の署名',
  slots: '口数の合計',
  chain: 'ヘッドの連鎖',
  rounds: '受付時刻とラウンド',
  settleRounds: '精算ラウンド',
  beacons: 'ビーコンの署名',
  lots: '抽選結果の再計算',
  kiriban: 'キリ番賞',
  lastOne: 'ラストワン賞',
  remaining: '残りの口と還元率',
  /** The member's phone only: its own clock held the receipt before the round's time. */
  receiptReceived: '受付票の受信時刻',
  /** The member's phone only: its own clock held the head before the settling round's time. */
  headReceived: 'ヘッドの受信時刻',
} as const;

/** A drand chain as the verifier trusts it (drand's /info fields). */
export interface TrustedChain {
  hash: string;
  schemeID: string;
  public_key: string;
  genesis_time: number;
  period: number;
}

export const check = (name: string, problems: string[], okDetail: string): RevealCheck =>
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

export const short = (hex: string) => (hex.length > 16 ? `${hex.slice(0, 16)}…` : hex);
export const labelOf = (e: BeaconLogEntry) =>
  e.seq !== null ? `受付票 ${e.seq}` : `未締切の受付票 ${String(e.receipt.drawId).slice(0, 8)}…`;
const digits = (n: number) => n.toLocaleString('en-US');
const isLotTier = (t: PackTier) => !t.isLastOne && !isKiribanTier(t);
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A receipt's acceptedAt: exactly YYYY-MM-DDThh:mm:ss.sssZ (it is signed), as milliseconds; NaN otherwise. */
export const acceptedMs = (e: BeaconLogEntry) =>
  ISO_MS.test(e.receipt.acceptedAt) ? parseIsoTime(e.receipt.acceptedAt) : NaN;

/** The numbers every check reads, computed once. */
export interface LogFacts {
  log: BeaconLog;
  /** The number of lots: the lot tiers' quantities. */
  lots: number;
  headByRound: Map<number, BeaconLogHead>;
  /** The log's items grouped by their receipt's round, in log order. */
  itemsByRound: Map<number, BeaconLogEntry[]>;
  roundTime: (round: number) => number;
  closeTime: (round: number) => number;
  /** The round a receipt accepted at `ms` targets: the first r with close(r) > ms. */
  targetRound: (ms: number) => number;
}

export function factsOf(log: BeaconLog): LogFacts {
  const { genesisTime, period } = log.pack.beacon;
  const roundTime = (r: number) => (genesisTime + (r - 1) * period) * 1000;
  const closeTime = (r: number) => roundTime(r) - log.pack.closeMarginMs;
  const itemsByRound = new Map<number, BeaconLogEntry[]>();
  for (const e of log.items) itemsByRound.set(e.receipt.round, [...(itemsByRound.get(e.receipt.round) ?? []), e]);
  return {
    log,
    lots: log.pack.tiers.filter(isLotTier).reduce((sum, t) => sum + t.quantity, 0),
    headByRound: new Map(log.heads.map((h) => [h.round, h])),
    itemsByRound,
    roundTime,
    closeTime,
    targetRound: (ms) =>
      Math.max(1, Math.floor((ms - genesisTime * 1000 + log.pack.closeMarginMs) / (period * 1000)) + 2),
  };
}

export const termsOf = (log: BeaconLog): BeaconPackTerms => ({
  gachaId: log.pack.id,
  title: log.pack.title,
  pricePerDraw: log.pack.pricePerDraw,
  tiers: log.pack.tiers,
  beacon: log.pack.beacon,
  receiptKey: log.pack.receiptKey,
  certificates: log.pack.certificates,
});

// (1) The pack's fields give the published commitment, and every receipt names this pack and commitment.
export function checkCommitment(log: BeaconLog, entries: readonly BeaconLogEntry[]): RevealCheck {
  const { pack } = log;
  const problems: string[] = [];
  if (!HASH_PATTERN.test(pack.commitment)) problems.push('公開されたコミットメントが64桁の小文字16進数ではありません');
  else {
    try {
      const recomputed = beaconCommitment(termsOf(log));
      if (recomputed !== pack.commitment)
        problems.push(`再計算値 ${short(recomputed)} が公開値 ${short(pack.commitment)} と一致しません`);
    } catch (error) {
      problems.push(`再計算できません（${(error as Error).message}）`);
    }
  }
  for (const e of entries) {
    if (e.receipt.gachaId !== pack.id)
      problems.push(`${labelOf(e)} のガチャID ${e.receipt.gachaId} がこのパックと違います`);
    if (e.receipt.commitment !== pack.commitment)
      problems.push(`${labelOf(e)} のコミットメントがパックの公開値と違います`);
  }
  return check(
    BEACON_CHECK_NAMES.commitment,
    problems,
    `公開値 ${short(pack.commitment)} と再計算値が一致し、${digits(entries.length)} 枚の受付票がこのコミットメントを名指ししています`,
  );
}

// (2) The randomness comes from a chain whose key nobody at the shop holds: quicknet, or one the user trusts.
export function checkSource(log: BeaconLog, trusted: readonly TrustedChain[], quicknetHash: string): RevealCheck {
  const b = log.pack.beacon;
  const same = (c: TrustedChain) =>
    c.hash === b.chainHash &&
    c.schemeID === b.scheme &&
    c.public_key.toLowerCase() === b.publicKey &&
    c.genesis_time === b.genesisTime &&
    c.period === b.period;
  const match = trusted.find(same);
  const problems: string[] = [];
  if (!match) {
    const named = trusted.find((c) => c.hash === b.chainHash);
    problems.push(
      named
        ? `chainHash ${short(b.chainHash)} の公開鍵・方式・開始時刻・周期がそのチェーンのものと一致しません`
        : `コミットメントのチェーン ${short(b.chainHash)} は drand の quicknet でも、信頼すると指定されたチェーンでもありません（鍵を持つ者は乱数を自由に作れます）`,
    );
  }
  const okDetail =
    match?.hash === quicknetHash
      ? `drand（League of Entropy）の quicknet（chainHash ${short(b.chainHash)}）です`
      : `信頼すると指定されたチェーン（chainHash ${short(b.chainHash)}、${b.period} 秒ごと）です`;
  return check(BEACON_CHECK_NAMES.source, problems, okDetail);
}

/** The tiers' own form, as the reveal's 賞の数量 checks it (problems appended). */
export function tierFormProblems(tiers: readonly PackTier[], lots: number, problems: string[]): Map<number, string> {
  const kiriban = new Map<number, string>();
  const seen = new Set<string>();
  const lastOnes = tiers.filter((t) => t.isLastOne && !isKiribanTier(t));
  if (lastOnes.length > 1) problems.push(`ラストワン賞の賞が ${lastOnes.length} 件あります（1 件まで）`);
  for (const tier of tiers) {
    if (seen.has(tier.id)) problems.push(`賞 ${tier.id} が重複しています`);
    seen.add(tier.id);
    if (!TIER_ID_PATTERN.test(tier.id)) problems.push(`賞の id ${JSON.stringify(tier.id)} が使えない文字を含みます`);
    if (tier.quantity < 1) problems.push(`賞 ${tier.id} の数量 ${tier.quantity} が 1 未満です`);
    if (tier.conversionValue < 0) problems.push(`賞 ${tier.id} の交換価値が負です`);
    if (isKiribanTier(tier)) {
      const numbers = tier.kiribanAt!;
      if (tier.isLastOne) problems.push(`キリ番賞 ${tier.id} がラストワン賞にもなっています`);
      if (tier.quantity !== numbers.length)
        problems.push(`キリ番賞 ${tier.id} の数量 ${tier.quantity} がキリ番の数 ${numbers.length} と違います`);
      numbers.forEach((n, i) => {
        if (n < 1 || n >= lots) problems.push(`キリ番 ${n} が 1〜${lots - 1} の範囲外です`);
        if (i > 0 && n <= numbers[i - 1]!) problems.push(`キリ番賞 ${tier.id} のキリ番が昇順ではありません`);
        if (kiriban.has(n)) problems.push(`キリ番 ${n} が二度指定されています`);
        kiriban.set(n, tier.id);
      });
    } else if (tier.isLastOne && tier.quantity !== 1) {
      problems.push(`ラストワン賞 ${tier.id} の数量が 1 ではありません（${tier.quantity}）`);
    }
  }
  return kiriban;
}

// (3) The tiers' form, the pack's total, and no tier won more often than it has lots.
export function checkTiers(facts: LogFacts): RevealCheck {
  const { log, lots } = facts;
  const problems: string[] = [];
  tierFormProblems(log.pack.tiers, lots, problems);
  if (log.pack.totalLots !== lots) problems.push(`総口数 ${log.pack.totalLots} と賞の数量の合計 ${lots} 口が違います`);
  const lotTiers = new Map(log.pack.tiers.filter(isLotTier).map((t) => [t.id, t.quantity]));
  const won = new Map<string, number>();
  for (const e of log.items)
    for (const tierId of e.tiers ?? []) {
      if (!lotTiers.has(tierId)) problems.push(`${labelOf(e)} の結果 ${JSON.stringify(tierId)} は口の賞ではありません`);
      won.set(tierId, (won.get(tierId) ?? 0) + 1);
    }
  for (const [tierId, quantity] of lotTiers) {
    const n = won.get(tierId) ?? 0;
    if (n > quantity) problems.push(`賞 ${tierId} が数量 ${quantity} を超えて ${n} 口出ています`);
  }
  return check(
    BEACON_CHECK_NAMES.tiers,
    problems,
    `${lotTiers.size} 種類・${digits(lots)} 口の賞が総口数と一致し、どの賞も数量を超えて出ていません`,
  );
}

// (4) Every receipt carries the shop's Ed25519 signature under the committed key.
export function checkSignatures(log: BeaconLog, entries: readonly BeaconLogEntry[]): RevealCheck {
  const problems = entries
    .filter((e) => !verifyReceiptSignature(e.receipt, e.signature, log.pack.receiptKey))
    .map((e) => `${labelOf(e)} の署名がコミットメントの鍵 ${short(log.pack.receiptKey)} で検証できません`);
  return check(
    BEACON_CHECK_NAMES.signatures,
    problems,
    `${digits(entries.length)} 枚の受付票の署名がコミットメントの鍵 ${short(log.pack.receiptKey)} で検証できました`,
  );
}

// (5) Each slot 1..N claimed at most once; the receipts' slots, the pending lots and the unclaimed slots make N.
export function checkSlots(facts: LogFacts): RevealCheck {
  const { log, lots } = facts;
  const problems: string[] = [];
  const claimedBy = new Map<number, string>();
  for (const e of [...log.items, ...log.pending]) {
    for (const slot of e.receipt.slots) {
      if (slot < 1 || slot > lots) problems.push(`${labelOf(e)} の口 ${slot} が 1〜${lots} の範囲外です`);
      else if (claimedBy.has(slot))
        problems.push(`口 ${slot} を ${claimedBy.get(slot)} と ${labelOf(e)} が受け付けています`);
      else claimedBy.set(slot, labelOf(e));
    }
  }
  const { pendingReceipts, pendingLots, unclaimedSlots } = log.remaining;
  const chained = log.items.reduce((sum, e) => sum + e.receipt.slots.length, 0);
  const listedPending = log.pending.reduce((sum, e) => sum + e.receipt.slots.length, 0);
  if (log.pending.length > pendingReceipts || listedPending > pendingLots)
    problems.push(
      `未締切の受付票 ${log.pending.length} 枚（${listedPending} 口）が件数 ${pendingReceipts} 枚（${pendingLots} 口）を超えています`,
    );
  else if (log.pending.length === pendingReceipts && listedPending !== pendingLots)
    problems.push(
      `未締切の受付票 ${pendingReceipts} 枚の口数 ${listedPending} が公開された ${pendingLots} 口と違います`,
    );
  if (chained + pendingLots + unclaimedSlots !== log.pack.totalLots)
    problems.push(
      `ヘッドに入った ${chained} 口 ＋ 未締切 ${pendingLots} 口 ＋ 未受付 ${unclaimedSlots} 口が総口数 ${log.pack.totalLots} になりません`,
    );
  return check(
    BEACON_CHECK_NAMES.slots,
    problems,
    `ヘッドに入った ${digits(chained)} 口 ＋ 未締切 ${digits(pendingLots)} 口 ＋ 未受付 ${digits(unclaimedSlots)} 口 ＝ 総口数 ${digits(log.pack.totalLots)}、どの口も一度だけ受け付けられています`,
  );
}

/** The receipt hash recomputed, or null when the receipt has no document (its signature check fails too). */
export function recomputedHash(e: BeaconLogEntry): string | null {
  try {
    return receiptHash(e.receipt);
  } catch {
    return null;
  }
}

/** A head recomputed from its receipts' hashes, or null when one has no document. */
export function recomputedHead(head: Pick<BeaconLogHead, 'prevHead' | 'round'>, entries: readonly BeaconLogEntry[]) {
  const hashes = entries.map(recomputedHash);
  if (hashes.some((h) => h === null) || hashes.length === 0) return null;
  try {
    return headHash(head.prevHead, head.round, hashes as string[]);
  } catch {
    return null;
  }
}

const firstSlot = (e: BeaconLogEntry) => e.receipt.slots[0] ?? 0;

// (6) The chain: seq 1, 2, 3 …; heads by round, each the hash of its predecessor and its receipts in first-slot
// order; each receipt's `after` a head that existed before its round; no pending receipt left out of a head.
export function checkChain(facts: LogFacts): RevealCheck {
  const { log, itemsByRound, headByRound } = facts;
  const problems: string[] = [];
  log.items.forEach((e, i) => {
    if (e.seq !== i + 1) problems.push(`${i + 1} 件目の受付票の番号が ${e.seq} です（1 から順に連番）`);
    if (recomputedHash(e) !== e.hash) problems.push(`${labelOf(e)} のハッシュが受付票の内容から求めた値と違います`);
    const previous = log.items[i - 1];
    if (
      previous &&
      (e.receipt.round < previous.receipt.round ||
        (e.receipt.round === previous.receipt.round && firstSlot(e) <= firstSlot(previous)))
    )
      problems.push(`${labelOf(e)} がラウンド順・最初の口の順に並んでいません`);
    if (!headByRound.has(e.receipt.round))
      problems.push(`${labelOf(e)} のラウンド ${e.receipt.round} のヘッドがありません`);
  });
  let prev = '';
  log.heads.forEach((h, i) => {
    const entries = itemsByRound.get(h.round) ?? [];
    if (i > 0 && h.round <= log.heads[i - 1]!.round) problems.push(`ヘッド ${h.round} がラウンド順に並んでいません`);
    if (h.prevHead !== prev)
      problems.push(
        `ヘッド ${h.round} の前のヘッドが ${short(h.prevHead) || '（なし）'} です（正しくは ${short(prev) || '（なし）'}）`,
      );
    if (entries.length !== h.receipts || entries.length === 0)
      problems.push(`ヘッド ${h.round} の受付票が ${h.receipts} 枚のはずが、ログには ${entries.length} 枚あります`);
    else {
      const head = recomputedHead(h, entries);
      if (head !== h.head)
        problems.push(
          `ヘッド ${h.round} が前のヘッドと受付票 ${entries.length} 枚から求めた値 ${short(head ?? '（求められません）')} と違います`,
        );
    }
    prev = h.head;
  });
  const lastRound = log.heads[log.heads.length - 1]?.round ?? 0;
  for (const e of [...log.items, ...log.pending]) {
    const { afterHead, afterRound, round } = e.receipt;
    if (afterRound === 0 && afterHead === '') continue;
    const named = headByRound.get(afterRound);
    if (!named || named.head !== afterHead || afterRound >= round)
      problems.push(
        `${labelOf(e)} の直前のヘッド（ラウンド ${afterRound}、${short(afterHead)}）がこのログのヘッドにありません`,
      );
  }
  for (const e of log.pending)
    if (e.seq !== null) problems.push(`${labelOf(e)} はヘッドに入る前なのに番号があります`);
    else if (e.receipt.round <= lastRound)
      problems.push(`${labelOf(e)} はラウンド ${e.receipt.round} の受付なのに、締め切られたヘッドに入っていません`);
  return check(
    BEACON_CHECK_NAMES.chain,
    problems,
    `${digits(log.heads.length)} 個のヘッドが前のヘッドと受付票 ${digits(log.items.length)} 枚から再計算でき、一本につながっています`,
  );
}

// (7) Each receipt targets the first round whose close is after its acceptance, after the commitment; each head
// was published after its round's close, in order; each receipt's `after` is the last head published before it.
export function checkRounds(facts: LogFacts): RevealCheck {
  const { log, closeTime, targetRound, headByRound } = facts;
  const problems: string[] = [];
  const committed = parseIsoTime(log.pack.committedAt);
  if (Number.isNaN(committed)) problems.push('committedAt が日時ではありません');
  if (!Number.isSafeInteger(log.pack.closeMarginMs) || log.pack.closeMarginMs < 0)
    problems.push('closeMarginMs が 0 以上の整数ではありません');
  const published = new Map(log.heads.map((h) => [h.round, parseIsoTime(h.publishedAt)]));
  log.heads.forEach((h, i) => {
    const at = published.get(h.round)!;
    if (Number.isNaN(at)) return problems.push(`ヘッド ${h.round} の publishedAt が日時ではありません`);
    if (at < closeTime(h.round)) problems.push(`ヘッド ${h.round} がラウンドの締切より前に公開されています`);
    const before = log.heads[i - 1];
    if (before && at < published.get(before.round)!)
      problems.push(`ヘッド ${h.round} が前のヘッドより前に公開されています`);
  });
  const rounds = log.heads.map((h) => h.round);
  for (const e of [...log.items, ...log.pending]) {
    const at = acceptedMs(e);
    if (Number.isNaN(at)) {
      problems.push(`${labelOf(e)} の受付時刻が YYYY-MM-DDThh:mm:ss.sssZ ではありません`);
      continue;
    }
    if (at < committed) problems.push(`${labelOf(e)} がコミットメントの公開より前に受け付けられています`);
    const expected = targetRound(at);
    if (e.receipt.round !== expected)
      problems.push(`${labelOf(e)} のラウンドが ${e.receipt.round} です（受付時刻から求めると ${expected}）`);
    const afterAt = headByRound.has(e.receipt.afterRound) ? published.get(e.receipt.afterRound)! : -Infinity;
    if (afterAt > at) problems.push(`${labelOf(e)} の直前のヘッドが受付より後に公開されています`);
    const next = rounds.find((r) => r > e.receipt.afterRound);
    if (next !== undefined && published.get(next)! < at)
      problems.push(`${labelOf(e)} の受付より前にヘッド ${next} が公開されていたのに、直前のヘッドになっていません`);
  }
  return check(
    BEACON_CHECK_NAMES.rounds,
    problems,
    `どの受付票も締切（ラウンドの時刻 − ${digits(log.pack.closeMarginMs)} ミリ秒）が受付より後の最初のラウンドを指し、どのヘッドも締切の後に公開されています`,
  );
}

// (8) Each head settles with settlementRound(chain, round, publishedAt): its own round only when published
// HEAD_GUARD_MS or more before it.
export function checkSettleRounds(log: BeaconLog): RevealCheck {
  const problems: string[] = [];
  let late = 0;
  for (const h of log.heads) {
    const at = parseIsoTime(h.publishedAt);
    if (Number.isNaN(at)) continue;
    const expected = settlementRound(log.pack.beacon, h.round, at);
    if (h.settleRound !== expected)
      problems.push(`ヘッド ${h.round} の精算ラウンドが ${h.settleRound} です（公開時刻から求めると ${expected}）`);
    if (expected !== h.round) late += 1;
  }
  return check(
    BEACON_CHECK_NAMES.settleRounds,
    problems,
    `${digits(log.heads.length)} 個のヘッドの精算ラウンドが公開時刻どおりです（遅れて公開され後のラウンドで精算されたヘッド ${late} 個）`,
  );
}
