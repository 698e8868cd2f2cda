// The verifier's checks over a parsed reveal (browser-safe, like format.ts): the commitment, the order from
// the seed, the tiers, the draw log, the ラストワン賞, the totals, the キリ番賞, the 個人キリ番賞, the ピタリ賞 and
// the 天井賞 (its part: ceiling-checks.ts), with their Japanese details.
// The shop, verify-pack and the pack page's 「このブラウザで検証する」 report them word for word.
import {
  CHECK_NAMES,
  HASH_PATTERN,
  MEMBER_PATTERN,
  REVEAL_FORMAT_CEILING,
  REVEAL_FORMAT_EXTRAS,
  REVEAL_FORMAT_KIRIBAN,
  SEED_PATTERN,
  TIER_ID_PATTERN,
  isIsoTime,
  parseIsoTime,
  isExtraTier,
  isKiribanTier,
  isPersonalKiribanTier,
  isPitariTier,
  personalKiribanQuantity,
  type CommitmentInput,
  type PackReveal,
  type RevealCheck,
  type RevealVerification,
} from './format';
import { isCeilingTier } from './ceiling';
import { ceilingTierProblems, recountCeiling } from './ceiling-checks';

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
  const { draws, lots } = reveal;
  const checks: RevealCheck[] = [];
  const totalLots = lots.length;
  checkCommitment(reveal, recomputed, checks);
  checkOrder(reveal, recomputed, checks);
  const kiribanNumbers = checkTiers(reveal, checks);
  const { drawnBy, positionEntries, drawsOutOfOrder } = checkDrawLog(reveal, checks);
  // Sold out ⇔ every position drawn (checkLastOne then finds who took the ラストワン賞).
  let drawnLots = 0;
  for (let position = 1; position <= totalLots; position += 1) if (drawnBy[position] !== 0) drawnLots += 1;
  const soldOut = totalLots > 0 && drawnLots === totalLots;
  checkLastOne(reveal, soldOut, checks);
  const undrawnLots = totalLots - drawnLots;
  checkTotals(reveal, positionEntries, undrawnLots, checks);
  const v4 = reveal.format === REVEAL_FORMAT_CEILING;
  const v3 = v4 || reveal.format === REVEAL_FORMAT_EXTRAS;
  const kiribanReached =
    v3 || reveal.format === REVEAL_FORMAT_KIRIBAN || kiribanNumbers.size > 0
      ? checkKiriban(reveal, kiribanNumbers, checks)
      : 0;
  const extras = v3
    ? {
        personalKiribanAwarded: checkPersonalKiriban(reveal, checks),
        pitariReached: checkPitari(reveal, drawnBy, checks),
        ...(v4 ? { ceilingAwarded: checkCeiling(reveal, checks) } : {}),
      }
    : {};

  return {
    ok: checks.every((c) => c.ok),
    checks,
    stats: {
      totalLots,
      drawnLots,
      undrawnLots,
      draws: draws.length,
      drawsOutOfOrder,
      soldOut,
      kiribanReached,
      ...extras,
    },
  };
}

// (1) The published hash over the revealed terms, tiers, seed and lots.
function checkCommitment(reveal: PackReveal, recomputed: RecomputedHashes, checks: RevealCheck[]): void {
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
function checkOrder(reveal: PackReveal, recomputed: RecomputedHashes, checks: RevealCheck[]): void {
  const { seed, lots } = reveal;
  const totalLots = lots.length;
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
/** Answers the キリ番 numbers, each with its tier. */
function checkTiers(reveal: PackReveal, checks: RevealCheck[]): Map<number, string> {
  const { tiers, lots } = reveal;
  const totalLots = lots.length;
  const kiribanNumbers = new Map<number, string>();
  const problems: string[] = [];
  const counts = new Map<string, number>();
  for (const tierId of lots) counts.set(tierId, (counts.get(tierId) ?? 0) + 1);
  const seen = new Set<string>();
  const lastOneTiers = tiers.filter((tier) => tier.isLastOne && !isKiribanTier(tier));
  const pitariTargets = new Set<string>();
  if (lastOneTiers.length > 1) problems.push(`ラストワン賞の賞が ${lastOneTiers.length} 件あります（1 件まで）`);
  for (const tier of tiers) {
    if (seen.has(tier.id)) problems.push(`賞 ${tier.id} が重複しています`);
    seen.add(tier.id);
    if (!TIER_ID_PATTERN.test(tier.id)) problems.push(`賞の id ${JSON.stringify(tier.id)} が使えない文字を含みます`);
    if (tier.quantity < 1) problems.push(`賞 ${tier.id} の数量 ${tier.quantity} が 1 未満です`);
    if (tier.conversionValue < 0) problems.push(`賞 ${tier.id} の交換価値が負です`);
    const count = counts.get(tier.id) ?? 0;
    const kinds = [tier.isLastOne, isKiribanTier(tier), isPersonalKiribanTier(tier), isPitariTier(tier)];
    if ([...kinds, isCeilingTier(tier)].filter(Boolean).length > 1)
      problems.push(
        `賞 ${tier.id} がラストワン賞・キリ番賞・個人キリ番賞・ピタリ賞・天井賞のうち二つ以上を兼ねています`,
      );
    problems.push(...ceilingTierProblems(tier, tiers, totalLots, count));
    if (isCeilingTier(tier)) continue; // its terms: ceilingTierProblems, above
    if (isPersonalKiribanTier(tier)) {
      const numbers = tier.personalKiribanAt!;
      if (count > 0) problems.push(`個人キリ番賞 ${tier.id} が口の中に ${count} 口あります`);
      numbers.forEach((n, i) => {
        if (n < 1 || n > totalLots) problems.push(`個人キリ番 ${n} が 1〜${totalLots} の範囲外です`);
        if (i > 0 && n <= numbers[i - 1]) problems.push(`個人キリ番賞 ${tier.id} の番号が昇順ではありません`);
      });
      const most = personalKiribanQuantity(numbers, totalLots);
      if (tier.quantity !== most)
        problems.push(`個人キリ番賞 ${tier.id} の数量 ${tier.quantity} が渡せる最大数 ${most} と違います`);
    } else if (isPitariTier(tier)) {
      const target = tiers.find((t) => t.id === tier.pitariOf);
      if (count > 0) problems.push(`ピタリ賞 ${tier.id} が口の中に ${count} 口あります`);
      if (tier.quantity !== 1) problems.push(`ピタリ賞 ${tier.id} の数量が 1 ではありません（${tier.quantity}）`);
      if (!target || isExtraTier(target))
        problems.push(`ピタリ賞 ${tier.id} の対象 ${JSON.stringify(tier.pitariOf)} が口のある賞ではありません`);
      if (pitariTargets.has(tier.pitariOf!)) problems.push(`賞 ${tier.pitariOf} のピタリ賞が二つあります`);
      pitariTargets.add(tier.pitariOf!);
    } else if (isKiribanTier(tier)) {
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
  const lotTiers = tiers.filter((tier) => !isExtraTier(tier)).length;
  const extras = [
    lastOneTiers.length === 1 ? 'ラストワン賞' : '',
    kiribanNumbers.size > 0 ? 'キリ番賞' : '',
    tiers.some(isPersonalKiribanTier) ? '個人キリ番賞' : '',
    pitariTargets.size > 0 ? 'ピタリ賞' : '',
    tiers.some(isCeilingTier) ? '天井賞' : '',
  ]
    .filter(Boolean)
    .join('・');
  checks.push(
    check(
      CHECK_NAMES.tiers,
      problems,
      `${lotTiers} 種類の賞の数量が口の一覧と一致しました${extras ? `（${extras}は口に含まれません）` : ''}`,
    ),
  );
  return kiribanNumbers;
}

// (4) The log: numbered 1..D in time order within the sale, each position 1..N received at most once.
/** Answers which draw received each position (1 + its index, 0 = undrawn) and what the totals need. */
function checkDrawLog(reveal: PackReveal, checks: RevealCheck[]) {
  const { draws } = reveal;
  const totalLots = reveal.lots.length;
  const drawnBy = new Int32Array(totalLots + 1); // 1 + index of the draw that received each position, 0 = undrawn
  let positionEntries = 0;
  let drawsOutOfOrder = 0;
  const problems: string[] = [];
  const committedAt = parseIsoTime(reveal.committedAt);
  const revealedAt = parseIsoTime(reveal.revealedAt);
  if (!isIsoTime(reveal.committedAt))
    problems.push(`committedAt ${JSON.stringify(reveal.committedAt)} が ISO 8601 の日時ではありません`);
  if (!isIsoTime(reveal.revealedAt))
    problems.push(`revealedAt ${JSON.stringify(reveal.revealedAt)} が ISO 8601 の日時ではありません`);
  else if (committedAt > revealedAt) problems.push('公開日時がコミットメントの日時より前です');
  let previousAt = -Infinity;
  let lowestUndrawn = 1;
  draws.forEach((draw, index) => {
    const label = `抽選 ${draw.drawNo}`;
    if (draw.drawNo !== index + 1) problems.push(`${index + 1} 件目の抽選番号が ${draw.drawNo} です（1 から順に連番）`);
    if (!MEMBER_PATTERN.test(draw.member)) problems.push(`${label} の会員が匿名化された16桁の16進数ではありません`);
    const at = parseIsoTime(draw.at);
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
  return { drawnBy, positionEntries, drawsOutOfOrder };
}

// (5) Sold out ⇔ every position drawn; then exactly the last draw that received lots took the ラストワン賞.
function checkLastOne(reveal: PackReveal, soldOut: boolean, checks: RevealCheck[]): void {
  const { tiers, draws } = reveal;
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
function checkTotals(reveal: PackReveal, positionEntries: number, undrawnLots: number, checks: RevealCheck[]): void {
  const { gacha } = reveal;
  const totalLots = reveal.lots.length;
  const problems: string[] = [];
  if (gacha.totalLots !== totalLots) problems.push(`総口数 ${gacha.totalLots} と口の一覧 ${totalLots} 口が違います`);
  if (positionEntries + undrawnLots !== gacha.totalLots) {
    problems.push(`引かれた口 ${positionEntries} と残り ${undrawnLots} の合計が総口数 ${gacha.totalLots} になりません`);
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
/** Answers how many キリ番 the sale reached. */
function checkKiriban(reveal: PackReveal, kiribanNumbers: Map<number, string>, checks: RevealCheck[]): number {
  const { draws } = reveal;
  let kiribanReached = 0;
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
      kiribanNumbers.size === 0
        ? 'キリ番賞はありません'
        : kiribanReached === 0
          ? `${kiribanNumbers.size} 件のキリ番にはまだ届いておらず、誰にも渡っていません`
          : `到達した ${kiribanReached} 件のキリ番賞が、それぞれその口を引いた抽選に 1 件ずつ渡りました`,
    ),
  );
  return kiribanReached;
}

// (8) 個人キリ番賞 (format /3): each member's draws in log order hold that member's lots 1, 2, 3 … of the pack
// (a member's draws run one at a time); their number n went to the member's draw whose lots include their nth,
// once per member, and to nobody who drew fewer than n.
/** Answers how many 個人キリ番賞 were given. */
function checkPersonalKiriban(reveal: PackReveal, checks: RevealCheck[]): number {
  const numbers = new Set(reveal.tiers.filter(isPersonalKiribanTier).flatMap((tier) => tier.personalKiribanAt!));
  const problems: string[] = [];
  const drawnSoFar = new Map<string, number>();
  let awarded = 0;
  for (const draw of reveal.draws) {
    const from = drawnSoFar.get(draw.member) ?? 0;
    const to = from + draw.positions.length;
    drawnSoFar.set(draw.member, to);
    const expected = [...numbers].filter((n) => n > from && n <= to).sort((a, b) => a - b);
    const got = [...(draw.personalKiriban ?? [])].sort((a, b) => a - b);
    for (const n of got)
      if (!numbers.has(n)) problems.push(`抽選 ${draw.drawNo} が個人キリ番賞にない ${n} を受け取っています`);
    if (expected.join(',') !== got.join(','))
      problems.push(
        `抽選 ${draw.drawNo} はその会員の ${from + 1}〜${to} 口目で、個人キリ番賞は ${expected.join('・') || 'なし'} のはずが ${got.join('・') || 'なし'} です`,
      );
    awarded += got.length;
  }
  checks.push(
    check(
      CHECK_NAMES.personalKiriban,
      problems,
      numbers.size === 0
        ? '個人キリ番賞はありません'
        : `個人キリ番賞 ${awarded} 件が、それぞれその会員の ${[...numbers].sort((a, b) => a - b).join('・')} 口目を引いた抽選に渡りました`,
    ),
  );
  return awarded;
}

// (9) ピタリ賞 (format /3): a ピタリ賞's tier is emptied when every lot of it was drawn; then exactly the draw
// that, in log order, was the last to receive a lot of that tier won it; while lots of it remain, nobody did.
/** Answers how many ピタリ賞 the sale reached. */
function checkPitari(reveal: PackReveal, drawnBy: Int32Array, checks: RevealCheck[]): number {
  const { lots, draws } = reveal;
  const problems: string[] = [];
  let reached = 0;
  const targets = reveal.tiers.filter(isPitariTier).map((tier) => tier.pitariOf!);
  const awarded = new Map<string, number[]>();
  for (const draw of draws)
    for (const tierId of draw.pitari ?? []) {
      if (!targets.includes(tierId))
        problems.push(`抽選 ${draw.drawNo} がピタリ賞のない賞 ${tierId} のピタリ賞を受け取っています`);
      awarded.set(tierId, [...(awarded.get(tierId) ?? []), draw.drawNo]);
    }
  for (const target of targets) {
    const winners = awarded.get(target) ?? [];
    let last = 0; // 1 + index of the latest draw holding a lot of the tier; 0 while one is undrawn
    let emptied = true;
    lots.forEach((tierId, i) => {
      if (tierId !== target) return;
      const holder = drawnBy[i + 1];
      if (holder === 0) emptied = false;
      else last = Math.max(last, holder);
    });
    if (!emptied || last === 0) {
      if (winners.length > 0)
        problems.push(`賞 ${target} の口が残っているのに抽選 ${winners.join('、')} がピタリ賞を受け取っています`);
      continue;
    }
    reached += 1;
    const expected = draws[last - 1].drawNo;
    if (winners.length !== 1)
      problems.push(`賞 ${target} のピタリ賞を受け取った抽選が ${winners.length} 件です（1 件のはず）`);
    else if (winners[0] !== expected)
      problems.push(
        `賞 ${target} のピタリ賞は最後の口を引いた抽選 ${expected} ではなく抽選 ${winners[0]} に渡っています`,
      );
  }
  checks.push(
    check(
      CHECK_NAMES.pitari,
      problems,
      targets.length === 0
        ? 'ピタリ賞はありません'
        : reached === 0
          ? 'ピタリ賞の対象の賞はまだ残っており、誰にも渡っていません'
          : `引き切られた ${reached} 件の賞のピタリ賞が、それぞれその賞の最後の口を引いた抽選に渡りました`,
    ),
  );
  return reached;
}

// (10) 天井賞 (format /4): ceiling-checks.ts recounts each member's streak draw by draw.
/** Answers how many 天井賞 were given. */
function checkCeiling(reveal: PackReveal, checks: RevealCheck[]): number {
  const { problems, okDetail, awarded } = recountCeiling(reveal);
  checks.push(check(CHECK_NAMES.ceiling, problems, okDetail));
  return awarded;
}
