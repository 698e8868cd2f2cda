// The verifier's part for the 天井賞 (format /4), browser-safe like reveal-checks.ts, which reports it: the
// tier's terms (inside check 3, 賞の数量) and check 10 (天井賞), with their Japanese details.
import { ceilingQuantity, ceilingWalk, isCeilingTier } from './ceiling';
import { isExtraTier, type PackReveal, type PackTier } from './format';

/**
 * Check 3's problems with a tier's 天井賞 fields ([] for a tier without them): a ceiling tier is the pack's only
 * one and holds no lot, its ceiling is at most the pack's lots, its `ceilingOf` lists lot tiers of the pack in
 * ascending id order without duplicates, and its quantity is ⌊lots ÷ ceilingAfter⌋; any other tier has no
 * `ceilingOf` and no negative `ceilingAfter`. `count` is the tier's lots in `lots`.
 */
export function ceilingTierProblems(tier: PackTier, tiers: PackTier[], totalLots: number, count: number): string[] {
  const problems: string[] = [];
  const { ceilingAfter: after, ceilingOf: of } = tier;
  if (!isCeilingTier(tier)) {
    if (after !== undefined && after < 0) problems.push(`賞 ${tier.id} の天井 ${after} が負です`);
    if (of !== undefined && of.length > 0)
      problems.push(`賞 ${tier.id} は天井（ceilingAfter）がないのに ceilingOf があります`);
    return problems;
  }
  if (tiers.find(isCeilingTier) !== tier) problems.push(`天井賞 ${tier.id} は二つ目の天井賞です（1 件まで）`);
  if (count > 0) problems.push(`天井賞 ${tier.id} が口の中に ${count} 口あります`);
  if (after! > totalLots) problems.push(`天井賞 ${tier.id} の天井 ${after} 口が総口数 ${totalLots} を超えています`);
  if (of === undefined || of.length === 0)
    problems.push(`天井賞 ${tier.id} に天井をリセットする賞（ceilingOf）がありません`);
  else {
    if (!of.every((id, i) => i === 0 || of[i - 1] < id))
      problems.push(`天井賞 ${tier.id} の ceilingOf が id の昇順でないか重複しています`);
    for (const id of of) {
      const target = tiers.find((t) => t.id === id);
      if (!target || isExtraTier(target))
        problems.push(`天井賞 ${tier.id} の ceilingOf の ${JSON.stringify(id)} が口のある賞ではありません`);
    }
  }
  const most = ceilingQuantity(after!, totalLots);
  if (tier.quantity !== most)
    problems.push(
      `天井賞 ${tier.id} の数量 ${tier.quantity} が渡せる最大数 ${most}（⌊${totalLots} ÷ ${after}⌋）と違います`,
    );
  return problems;
}

/**
 * (10) 天井賞 (format /4): per member, in log order, a streak of lots counted by ceilingWalk over each draw's
 * lots in position order (a lot of a tier in `ceilingOf` resets it, the Nth other lot in a row wins a 天井賞
 * and resets it); each draw's `ceiling` is exactly what its walk won. With several ceiling tiers (check 3 fails
 * them) a draw's expected `ceiling` is the sum over them. Answers the problems, the detail on success and the
 * 天井賞 given (the sum of the draws' `ceiling`).
 */
export function recountCeiling(reveal: PackReveal): { problems: string[]; okDetail: string; awarded: number } {
  const { lots, draws } = reveal;
  const ceilings = reveal.tiers.filter(isCeilingTier);
  const problems: string[] = [];
  const streaks = new Map<string, number[]>(); // member → streak before their next draw, per ceiling tier
  const drawnSoFar = new Map<string, number>(); // member → their lots so far
  let awarded = 0;
  for (const draw of draws) {
    const before = streaks.get(draw.member) ?? ceilings.map(() => 0);
    const lotTiers = [...draw.positions]
      .sort((a, b) => a - b)
      .map((p) => (p >= 1 && p <= lots.length ? lots[p - 1] : undefined));
    let expected = 0;
    const walks = ceilings.map((tier, i) => ceilingWalk(before[i], lotTiers, tier.ceilingAfter!, tier.ceilingOf ?? []));
    for (const walk of walks) expected += walk.won;
    streaks.set(
      draw.member,
      walks.map((walk) => walk.streak),
    );
    const from = drawnSoFar.get(draw.member) ?? 0;
    drawnSoFar.set(draw.member, from + lotTiers.length);
    const got = draw.ceiling ?? 0;
    if (got !== expected)
      problems.push(
        `抽選 ${draw.drawNo} はその会員の ${from + 1}〜${from + lotTiers.length} 口目（直前の連続 ${before[0] ?? 0} 口）で、天井賞は ${expected} 件のはずが ${got} 件です`,
      );
    awarded += got;
  }
  const [ceiling] = ceilings;
  const hits = (ceiling?.ceilingOf ?? []).map((id) => reveal.tiers.find((t) => t.id === id)?.label ?? id).join('・');
  const okDetail = !ceiling
    ? '天井賞はありません'
    : awarded === 0
      ? `${hits} を引かずに ${ceiling.ceilingAfter} 口続けて引いた会員はおらず、天井賞は誰にも渡っていません`
      : `天井賞 ${awarded} 件が、それぞれその会員が ${hits} を引かずに ${ceiling.ceilingAfter} 口続けて引いた抽選に渡りました`;
  return { problems, okDetail, awarded };
}
