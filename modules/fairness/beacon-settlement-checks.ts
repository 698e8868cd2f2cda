// The checks of a beacon pack's settlement (docs/formats/reveal-formats.md part B, section B8, checks 9–13):
// the beacons (BLS), the lots recomputed with oripa-beacon-select-v1, the キリ番賞 and the ラストワン賞 in the
// settled order, and the remaining lots with their 還元率. Browser-safe; beacon-verify.ts runs them.
import { verifyBeacon } from '#modules/beacon';
import { settleDraws } from './beacon-mode';
import { HASH_PATTERN, isKiribanTier, type PackTier, type RevealCheck } from './format';
import { remainingLots, type BeaconLog, type BeaconLogEntry } from './beacon-log';
import { BEACON_CHECK_NAMES, check, labelOf, tierFormProblems, type LogFacts } from './beacon-checks';

const digits = (n: number) => n.toLocaleString('en-US');
const isLotTier = (t: PackTier) => !t.isLastOne && !isKiribanTier(t);

// (9) Each settled head's beacon is its settling round's, signed by the committed chain (BLS), randomness its
// SHA-256; settled heads come first; an unsettled head has no beacon.
export function checkBeacons(log: BeaconLog): RevealCheck {
  const problems: string[] = [];
  const chain = { schemeID: log.pack.beacon.scheme, public_key: log.pack.beacon.publicKey };
  const verified = new Map<string, string | null>();
  let open: number | null = null;
  let settled = 0;
  for (const h of log.heads) {
    if (!h.settled) {
      open ??= h.round;
      if (h.beacon) problems.push(`未精算のヘッド ${h.round} にビーコンがあります`);
      continue;
    }
    settled += 1;
    if (open !== null) problems.push(`ヘッド ${h.round} が、前の未精算のヘッド ${open} より先に精算されています`);
    if (!h.beacon) {
      problems.push(`精算済みのヘッド ${h.round} にビーコンがありません`);
      continue;
    }
    const key = `${h.settleRound}:${h.beacon.round}:${h.beacon.signature}:${h.beacon.randomness}`;
    if (!verified.has(key)) {
      const result = verifyBeacon(chain, h.beacon, h.settleRound);
      verified.set(key, result.valid ? null : result.detail);
    }
    const failure = verified.get(key);
    if (failure) problems.push(`ヘッド ${h.round} のビーコン（ラウンド ${h.beacon.round}）: ${failure}`);
  }
  return check(
    BEACON_CHECK_NAMES.beacons,
    problems,
    `精算済みの ${settled} 個のヘッドのビーコンが、コミットメントのチェーンの精算ラウンドの署名として検証できました（乱数値 ＝ 署名の SHA-256）`,
  );
}

// (10) The lots: each settled head in order, oripa-beacon-select-v1 over what remains, equals the published
// tiers; each settled receipt's sale numbers follow the settled order; unsettled receipts show nothing yet.
export function checkLots(facts: LogFacts): RevealCheck {
  const { log, itemsByRound } = facts;
  const problems: string[] = [];
  let remaining = log.pack.tiers.filter(isLotTier).map((t) => ({ id: t.id, remaining: t.quantity }));
  let sold = 0;
  let settledReceipts = 0;
  let recomputing = true;
  for (const h of log.heads) {
    const entries = itemsByRound.get(h.round) ?? [];
    if (!h.settled) {
      for (const e of entries)
        if (e.settled || e.tiers !== null || e.saleNumbers !== null || e.kiriban.length > 0 || e.lastOne)
          problems.push(`${labelOf(e)} はヘッドが未精算なのに結果があります`);
      continue;
    }
    let expected: string[][] | null = null;
    // drand's hex is accepted in either case (check 9); the selection keys HMAC with its bytes.
    const randomness = h.beacon?.randomness.toLowerCase() ?? '';
    if (recomputing && HASH_PATTERN.test(randomness)) {
      try {
        const draws = entries.map((e) => ({ drawId: e.receipt.drawId, n: e.receipt.slots.length }));
        const settled = settleDraws(randomness, log.pack.id, remaining, draws);
        expected = settled.tiers;
        remaining = settled.remaining;
      } catch (error) {
        problems.push(`ヘッド ${h.round} の結果を再計算できません（${(error as Error).message}）`);
      }
    }
    if (!expected) recomputing = false;
    entries.forEach((e, i) => {
      if (!e.settled || !e.tiers) return problems.push(`${labelOf(e)} はヘッドが精算済みなのに結果がありません`);
      settledReceipts += 1;
      const want = expected?.[i];
      if (want) {
        const k = want.findIndex((tierId, j) => e.tiers![j] !== tierId);
        if (e.tiers.length !== want.length)
          problems.push(`${labelOf(e)} の結果が ${e.tiers.length} 口です（${want.length} 口のはず）`);
        else if (k >= 0) problems.push(`${labelOf(e)} の ${k + 1} 口目が ${e.tiers[k]} です（再計算では ${want[k]}）`);
      }
      const n = e.receipt.slots.length;
      const numbers = Array.from({ length: n }, (_, j) => sold + j + 1);
      if (JSON.stringify(e.saleNumbers) !== JSON.stringify(numbers))
        problems.push(
          `${labelOf(e)} の販売順が ${JSON.stringify(e.saleNumbers)} です（${sold + 1}〜${sold + n} のはず）`,
        );
      sold += n;
    });
  }
  for (const e of log.pending)
    if (e.settled || e.tiers !== null || e.saleNumbers !== null || e.kiriban.length > 0 || e.lastOne)
      problems.push(`${labelOf(e)} はヘッドに入る前なのに結果があります`);
  if (!recomputing) problems.push('ビーコンのないヘッドから先は再計算していません');
  return check(
    BEACON_CHECK_NAMES.lots,
    problems,
    `精算済みの受付票 ${digits(settledReceipts)} 枚・${digits(sold)} 口の結果が、ビーコンの乱数と残りの口から oripa-beacon-select-v1 で求めた結果と一致しました`,
  );
}

/** Settled receipts with their sale numbers' range, in the settled order. */
function settledRanges(log: BeaconLog) {
  const ranges: { e: BeaconLogEntry; from: number; to: number }[] = [];
  let sold = 0;
  for (const e of log.items) {
    if (!e.settled) continue;
    ranges.push({ e, from: sold + 1, to: sold + e.receipt.slots.length });
    sold += e.receipt.slots.length;
  }
  return { ranges, sold };
}

// (11) キリ番賞 in the settled order: number K reached goes to the receipt holding sale number K, once.
export function checkKiriban(facts: LogFacts): { check: RevealCheck; reached: number } {
  const { log, lots } = facts;
  const numbers = new Set(tierFormProblems(log.pack.tiers, lots, []).keys());
  const { ranges } = settledRanges(log);
  const problems: string[] = [];
  const awarded = new Map<number, string[]>();
  for (const e of [...log.items, ...log.pending]) {
    for (const k of e.kiriban) {
      if (!numbers.has(k)) problems.push(`${labelOf(e)} がキリ番賞にない ${k} を受け取っています`);
      awarded.set(k, [...(awarded.get(k) ?? []), labelOf(e)]);
    }
  }
  let reached = 0;
  for (const k of [...numbers].sort((a, b) => a - b)) {
    const holder = ranges.find((r) => r.from <= k && k <= r.to);
    const winners = awarded.get(k) ?? [];
    if (!holder) {
      if (winners.length > 0)
        problems.push(`${k} 口目は精算されていないのに ${winners.join('、')} がキリ番賞を受け取っています`);
      continue;
    }
    reached += 1;
    if (winners.length !== 1)
      problems.push(`${k} 口目のキリ番賞を受け取った受付票が ${winners.length} 枚です（1 枚のはず）`);
    else if (winners[0] !== labelOf(holder.e))
      problems.push(
        `${k} 口目のキリ番賞は ${k} 口目を引いた ${labelOf(holder.e)} ではなく ${winners[0]} に渡っています`,
      );
  }
  const okDetail =
    numbers.size === 0
      ? 'キリ番賞はありません'
      : reached === 0
        ? `${numbers.size} 件のキリ番にはまだ届いておらず、誰にも渡っていません`
        : `到達した ${reached} 件のキリ番賞が、精算順でその口を引いた受付票に 1 件ずつ渡りました`;
  return { check: check(BEACON_CHECK_NAMES.kiriban, problems, okDetail), reached };
}

// (12) The ラストワン賞: once every lot is settled, to the receipt holding sale number N, and to nobody before.
export function checkLastOne(facts: LogFacts): RevealCheck {
  const { log, lots } = facts;
  const hasTier = log.pack.tiers.some((t) => t.isLastOne && !isKiribanTier(t));
  const { ranges, sold } = settledRanges(log);
  const winners = [...log.items, ...log.pending].filter((e) => e.lastOne);
  const holder = ranges.find((r) => r.from <= lots && lots <= r.to)?.e;
  const problems: string[] = [];
  let okDetail: string;
  if (!hasTier) {
    if (winners.length > 0)
      problems.push(`ラストワン賞のない口なのに ${winners.map(labelOf).join('、')} が受け取っています`);
    okDetail = 'ラストワン賞はありません';
  } else if (sold < lots) {
    if (winners.length > 0)
      problems.push(
        `全 ${lots} 口が精算されていないのに ${winners.map(labelOf).join('、')} がラストワン賞を受け取っています`,
      );
    okDetail = `精算済み ${digits(sold)} 口／${digits(lots)} 口: ラストワン賞はまだ誰にも渡っていません`;
  } else {
    if (winners.length !== 1) problems.push(`ラストワン賞を受け取った受付票が ${winners.length} 枚です（1 枚のはず）`);
    else if (winners[0] !== holder)
      problems.push(
        `ラストワン賞は ${lots} 口目を引いた ${holder ? labelOf(holder) : '（なし）'} ではなく ${labelOf(winners[0]!)} に渡っています`,
      );
    okDetail = `精算順で最後の ${digits(lots)} 口目を引いた ${holder ? labelOf(holder) : ''} がラストワン賞を受け取りました`;
  }
  return check(BEACON_CHECK_NAMES.lastOne, problems, okDetail);
}

// (13) The remaining lots by tier and the 還元率 of what remains, as the settled receipts leave them.
export function checkRemaining(facts: LogFacts): RevealCheck {
  const { log } = facts;
  const won = new Map<string, number>();
  for (const e of log.items) if (e.settled) for (const t of e.tiers ?? []) won.set(t, (won.get(t) ?? 0) + 1);
  const { unclaimedSlots, pendingReceipts, pendingLots } = log.remaining;
  const settledReceipts = log.items.filter((e) => e.settled).length;
  const expected = remainingLots(log.pack, won, { settledReceipts, unclaimedSlots, pendingReceipts, pendingLots });
  const published = log.remaining;
  const problems: string[] = [];
  for (const key of ['settledReceipts', 'settledLots', 'lots', 'value', 'cost', 'returnRatePercent'] as const)
    if (published[key] !== expected[key])
      problems.push(`${key} が ${published[key]} です（ログから求めると ${expected[key]}）`);
  const byId = new Map(published.tiers.map((t) => [t.tierId, t]));
  if (published.tiers.length !== expected.tiers.length) problems.push('残りの賞の一覧が口の賞と一致しません');
  for (const t of expected.tiers) {
    const p = byId.get(t.tierId);
    if (!p) problems.push(`残りの賞の一覧に ${t.tierId} がありません`);
    else if (
      p.quantity !== t.quantity ||
      p.won !== t.won ||
      p.remaining !== t.remaining ||
      p.conversionValue !== t.conversionValue
    )
      problems.push(`賞 ${t.tierId} の残りが ${p.remaining} 口です（ログから求めると ${t.remaining} 口）`);
  }
  const rate = expected.returnRatePercent === null ? '—' : `${expected.returnRatePercent}%`;
  return check(
    BEACON_CHECK_NAMES.remaining,
    problems,
    `残り ${digits(expected.lots)} 口（${expected.tiers.map((t) => `${t.tierId} ${t.remaining}`).join('・')}）、残りの還元率 ${rate}（交換価値 ${digits(expected.value)} ÷ ${digits(expected.cost)} コイン）`,
  );
}
