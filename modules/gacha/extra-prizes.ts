// Extra prizes that are not lots (decisions 027, 088 and 089): the ラストワン賞, キリ番賞 (the Nth lot sold), 個人キリ番賞
// (a member's own Nth lot), ピタリ賞 (the draw that empties a tier) and 天井賞 (a member's N lots in a row without a
// hit). Pure: the pack's definition checks, the lot counts, the pack page and the editor all ask these the same way.
import { ceilingQuantity, personalKiribanQuantity } from '#modules/fairness';
import { allZorome } from './kiriban';

const count = (n: number) => n.toLocaleString('ja-JP');

/** The fields that make a tier an extra prize, as a definition, a row or a view carries them. */
export interface ExtraPrizeFields {
  isLastOne?: boolean | null;
  kiribanAt?: readonly number[] | null;
  personalKiribanAt?: readonly number[] | null;
  /** A ピタリ賞: the rewarded tier (its key in a definition, its id in a row). */
  pitariOf?: string | null;
  /** A 天井賞 (decision 089): the lots in a row without a hit that win it. */
  ceilingAfter?: number | null;
  /** A 天井賞's hits: the lot tiers (keys in a definition, ids in a row) that reset a member's count. */
  ceilingOf?: readonly string[] | null;
}

/** An extra prize: not a lot of the pack, an award on top of one. */
export const isExtraPrize = (tier: ExtraPrizeFields) =>
  Boolean(
    tier.isLastOne || tier.kiribanAt?.length || tier.personalKiribanAt?.length || tier.pitariOf || tier.ceilingAfter,
  );

/** A lot tier: one whose quantity is lots of the pack. */
export const isLotTier = (tier: ExtraPrizeFields) => !isExtraPrize(tier);

/** The kinds of a tier that make it an extra prize (a tier is at most one of them). */
export function extraKindsOf(tier: ExtraPrizeFields): ('lastone' | 'kiriban' | 'personal' | 'pitari' | 'ceiling')[] {
  return [
    tier.isLastOne ? ('lastone' as const) : null,
    tier.kiribanAt?.length ? ('kiriban' as const) : null,
    tier.personalKiribanAt?.length ? ('personal' as const) : null,
    tier.pitariOf ? ('pitari' as const) : null,
    tier.ceilingAfter ? ('ceiling' as const) : null,
  ].filter((kind) => kind !== null);
}

/** One problem of a pack's extra prizes, at a tier's index and field. */
export interface ExtraPrizeProblem {
  index: number;
  field: 'personalKiribanAt' | 'pitariOf' | 'ceilingAfter' | 'ceilingOf' | 'conversionValue' | 'quantity' | 'kind';
  message: string;
}

/**
 * The 個人キリ番賞 and ピタリ賞 of a pack definition against its lots (decision 088), in Japanese: one kind per
 * tier, personal numbers within the pack and a quantity of the most they can give, a ピタリ賞 naming a lot tier
 * (by key) once, and neither on a beacon pack (whose lots are decided after the draw).
 * @example extraPrizeProblems(pack.tiers, 1000, 'sequence') // []
 */
export function extraPrizeProblems(
  tiers: readonly (ExtraPrizeFields & { key: string; quantity: number; conversionValue?: number })[],
  lots: number,
  drawMode: string,
): ExtraPrizeProblem[] {
  const problems: ExtraPrizeProblem[] = [];
  const targets = new Set<string>();
  problems.push(...ceilingProblems(tiers, lots, drawMode));
  tiers.forEach((tier, index) => {
    if (extraKindsOf(tier).length > 1)
      problems.push({
        index,
        field: 'kind',
        message: 'ラストワン賞・キリ番賞・個人キリ番賞・ピタリ賞・天井賞は、1つの賞にどれか1つだけ指定できます。',
      });
    const personal = tier.personalKiribanAt ?? [];
    if (personal.length > 0) {
      if (drawMode === 'beacon')
        problems.push({ index, field: 'personalKiribanAt', message: '個人キリ番賞はビーコン方式の口では使えません。' });
      const sorted = [...personal].sort((a, b) => a - b);
      if (sorted.some((n, i) => i > 0 && n === sorted[i - 1]))
        problems.push({ index, field: 'personalKiribanAt', message: '個人キリ番が重複しています。' });
      const over = sorted.find((n) => n > lots);
      if (lots >= 1 && over !== undefined)
        problems.push({
          index,
          field: 'personalKiribanAt',
          message: `個人キリ番 ${over} 口目は総口数（${lots}口）以下にしてください。`,
        });
      const most = personalKiribanQuantity(sorted, lots);
      if (lots >= 1 && over === undefined && tier.quantity !== most)
        problems.push({
          index,
          field: 'quantity',
          message: `個人キリ番賞の数量は渡せる最大数（${most}枚）にしてください。`,
        });
    }
    if (tier.pitariOf) {
      if (drawMode === 'beacon')
        problems.push({ index, field: 'pitariOf', message: 'ピタリ賞はビーコン方式の口では使えません。' });
      const target = tiers.find((t) => t.key === tier.pitariOf);
      if (!target || isExtraPrize(target))
        problems.push({ index, field: 'pitariOf', message: 'ピタリ賞の対象には口のある賞を選んでください。' });
      if (targets.has(tier.pitariOf))
        problems.push({ index, field: 'pitariOf', message: '同じ賞のピタリ賞は1つまでです。' });
      targets.add(tier.pitariOf);
      if (tier.quantity !== 1) problems.push({ index, field: 'quantity', message: 'ピタリ賞の数量は1です。' });
    }
  });
  return problems;
}

/**
 * A pack's 天井賞 (decision 089) in Japanese: at most one, not on a beacon pack, N within the pack, hits naming lot
 * tiers, the quantity its most (⌊lots ÷ N⌋) and a card worth at least every hit's, so 「A賞以上確定」 holds.
 */
function ceilingProblems(
  tiers: readonly (ExtraPrizeFields & { key: string; quantity: number; conversionValue?: number })[],
  lots: number,
  drawMode: string,
): ExtraPrizeProblem[] {
  const problems: ExtraPrizeProblem[] = [];
  const ceilings = tiers.map((tier, index) => ({ tier, index })).filter(({ tier }) => tier.ceilingAfter);
  for (const [n, { tier, index }] of ceilings.entries()) {
    const push = (field: ExtraPrizeProblem['field'], message: string) => problems.push({ index, field, message });
    if (n > 0) push('kind', '天井賞は1つのオリパに1つまでです。');
    if (drawMode === 'beacon') push('ceilingAfter', '天井賞はビーコン方式の口では使えません。');
    const after = tier.ceilingAfter!;
    if (lots >= 1 && after > lots) push('ceilingAfter', `天井の口数は総口数（${lots}口）以下にしてください。`);
    const hits = (tier.ceilingOf ?? []).map((key) => tiers.find((t) => t.key === key));
    if (hits.length === 0 || hits.some((t) => !t || isExtraPrize(t)))
      push('ceilingOf', '天井で確定する賞には口のある賞を選んでください。');
    else if (tier.conversionValue !== undefined) {
      const least = Math.min(...hits.map((t) => t!.conversionValue ?? 0));
      if (tier.conversionValue < least)
        push(
          'conversionValue',
          `天井賞の交換コインは、確定する賞のうち最も低い ${count(least)}コイン以上にしてください（「以上確定」と書くため）。`,
        );
    }
    if (lots >= 1 && after <= lots && tier.quantity !== ceilingQuantity(after, lots))
      push('quantity', `天井賞の数量は渡せる最大数（${ceilingQuantity(after, lots)}枚）にしてください。`);
  }
  return problems;
}

/**
 * The chance that one lot bought wins an extra prize (issue 34 item 3), or null when it is not a chance: a
 * 個人キリ番賞 is certain at the member's own Nth lot. The ラストワン賞 and a ピタリ賞 go with one lot of the pack's
 * `lots` (the last one, the tier's last one), a キリ番賞 with one lot per number.
 * @example extraChancePerLot({ kiribanAt: [100, 500] }, 1000) === 0.002
 */
export function extraChancePerLot(tier: ExtraPrizeFields, lots: number): number | null {
  if (lots < 1 || tier.personalKiribanAt?.length || tier.ceilingAfter) return null;
  if (tier.kiribanAt?.length) return tier.kiribanAt.length / lots;
  if (tier.isLastOne || tier.pitariOf) return 1 / lots;
  return null;
}

/** One extra prize as the pack page states it beside the price: its name, how it is won and its odds. */
export interface ExtraPrizeOdds {
  tierId: string;
  label: string;
  /** How it is won, in a member's words: 「最後の1口を引いた方」「あなたの10口目・50口目」. */
  condition: string;
  /** The odds of one lot, in words: 「1口あたり 1/1,000」, or 「到達で確定（1人1回）」 for a 個人キリ番賞. */
  odds: string;
}

/**
 * Every extra prize of a pack with its condition and odds per lot (issue 34 item 3), in the tiers' order.
 * `labelOf` names a ピタリ賞's tier by its id.
 * @example extraPrizeOdds(pack.tiers, 1000) // [{ label: 'ラストワン賞', condition: '最後の1口を引いた方', odds: '1口あたり 1/1,000' }]
 */
export function extraPrizeOdds(
  tiers: readonly (ExtraPrizeFields & { id: string; label: string; quantity?: number })[],
  lots: number,
): ExtraPrizeOdds[] {
  const labelOf = (id: string) => tiers.find((t) => t.id === id)?.label ?? id;
  return tiers.filter(isExtraPrize).map((tier) => {
    const chance = extraChancePerLot(tier, lots);
    const numbers = (list: readonly number[]) => list.map((n) => `${count(n)}口目`).join('・');
    const condition = tier.isLastOne
      ? '最後の1口を引いた方'
      : tier.kiribanAt?.length
        ? `全体の${numbers(tier.kiribanAt)}を引いた方`
        : tier.personalKiribanAt?.length
          ? `このオリパでのあなたの${numbers(tier.personalKiribanAt)}`
          : tier.ceilingAfter
            ? `${ceilingWords(tier.ceilingOf ?? [], tiers)}が出ないまま${count(tier.ceilingAfter)}口引いた方`
            : `${labelOf(tier.pitariOf ?? '')}の最後の1口を引いた方`;
    const odds = tier.ceilingAfter
      ? `${count(tier.ceilingAfter)}口ごとに確定（専用の在庫${count(tier.quantity ?? 0)}枚から。ほかの賞の口は減りません）`
      : chance === null
        ? '到達で確定（お一人様各1回）'
        : tier.kiribanAt && tier.kiribanAt.length > 1
          ? `1口あたり ${count(tier.kiribanAt.length)}/${count(lots)}`
          : `1口あたり 1/${count(lots)}`;
    return { tierId: tier.id, label: tier.label, condition, odds };
  });
}

/**
 * Who receives an extra prize, as the pack page's line-up and disclosure say it before 「にプレゼント」, or null for a
 * lot tier. `tiers` names a ピタリ賞's tier by its label.
 * @example extraNoteOf({ kiribanAt: [100, 500] }, tiers) === '100口目・500口目を引いた方'
 */
export function extraNoteOf(
  tier: ExtraPrizeFields,
  tiers: readonly (ExtraPrizeFields & { id: string; label: string })[],
): string | null {
  const numbers = (list: readonly number[]) => list.map((n) => `${count(n)}口目`).join('・');
  if (tier.kiribanAt?.length)
    return allZorome(tier.kiribanAt)
      ? `ゾロ目（${numbers(tier.kiribanAt)}）を引いた方`
      : `${numbers(tier.kiribanAt)}を引いた方`;
  if (tier.personalKiribanAt?.length) return `ご自身の${numbers(tier.personalKiribanAt)}を引いた方（お一人様各1回）`;
  if (tier.pitariOf)
    return `${tiers.find((t) => t.id === tier.pitariOf)?.label ?? ''}の最後の1口を引いた方（ピタリ賞）`;
  if (tier.ceilingAfter)
    return `${ceilingWords(tier.ceilingOf ?? [], tiers)}が出ないまま${count(tier.ceilingAfter)}口引いた方（天井賞）`;
  if (tier.isLastOne) return '最後の1口を引いた方';
  return null;
}

/**
 * What a 天井賞 guarantees, in members' words (decision 089): 「A賞以上」 when its hits are the best lot tiers down to
 * one, the one tier's label when it is one, else the labels. `tiers` in rank order, hits by id.
 * @example ceilingWords(['s', 'a'], [{ id: 's', label: 'S賞' }, { id: 'a', label: 'A賞' }, { id: 'b', label: 'B賞' }]) === 'A賞以上'
 */
export function ceilingWords(
  hits: readonly string[],
  tiers: readonly (ExtraPrizeFields & { id: string; label: string })[],
): string {
  const lotTiers = tiers.filter(isLotTier);
  const named = lotTiers.filter((t) => hits.includes(t.id));
  if (named.length === 0) return '';
  if (named.length === 1 && lotTiers[0] !== named[0]) return named[0]!.label;
  const best = lotTiers.slice(0, named.length).every((t) => hits.includes(t.id));
  return best ? `${named.at(-1)!.label}以上` : `${named.map((t) => t.label).join('・')}のいずれか`;
}

/**
 * A member's 天井 meter (decision 089), or null for a visitor or a pack without a 天井賞: the lots (and coins, 1 coin
 * = ¥1) left until the guarantee, from the member's streak.
 * @example ceilingMeter({ after: 100, streak: 62, words: 'A賞以上', price: 100 }) === 'あと38口（3,800円分）でA賞以上確定（天井）'
 */
export function ceilingMeter(input: { after: number; streak: number | null; words: string; price: number }) {
  if (input.streak === null) return null;
  const left = Math.max(input.after - input.streak, 1);
  return `あと${count(left)}口（${count(left * input.price)}円分）で${input.words}確定（天井）`;
}

/**
 * A member's meter for a pack's 個人キリ番賞 (decision 088), or null for a visitor or a pack without them.
 * @example personalKiribanMeter([10, 30], 7) === 'このオリパを7口引きました。あと3口で個人キリ番賞（10口目）'
 */
export function personalKiribanMeter(numbers: readonly number[], myLots: number | null): string | null {
  if (numbers.length === 0 || myLots === null) return null;
  const next = numbers.find((n) => n > myLots);
  const drawn = `このオリパを${count(myLots)}口引きました。`;
  return next === undefined
    ? `${drawn}個人キリ番賞はすべて達成済みです。`
    : `${drawn}あと${count(next - myLots)}口で個人キリ番賞（${count(next)}口目）`;
}
