// The prize box's tier filter and order (decision 057, issue 29 item 4): chips for each tier name in
// the shown status (「S賞 1」「A賞 2」…, best first) and three orders (新しい順, 賞が高い順, 交換額が高い順),
// all plain links so they work before the page's script has loaded. The arranging itself is a pure
// function the loader runs over the newest page of the status.
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import type { PrizeItem, PrizeStatus } from '#modules/draw';
import { isSOrBetter } from '#modules/draw/browser';
import { TIER_CHIP } from './labels';

export const PRIZE_BOX_SORTS = [
  { id: 'new', label: '新しい順' },
  { id: 'tier', label: '賞が高い順' },
  { id: 'value', label: '交換額が高い順' },
] as const;
export type PrizeBoxSort = (typeof PRIZE_BOX_SORTS)[number]['id'];

export interface PrizeBoxView {
  sort: PrizeBoxSort;
  /** A tier name (「A賞」), or null for every tier. */
  tier: string | null;
}

/** The view the address asks for; anything unknown is the default (newest first, every tier). */
export function prizeBoxViewOf(params: URLSearchParams): PrizeBoxView {
  const sort = PRIZE_BOX_SORTS.find((s) => s.id === params.get('sort'))?.id ?? 'new';
  const tier = params.get('tier')?.trim().slice(0, 40) || null;
  return { sort, tier };
}

type Arrangeable = Pick<PrizeItem, 'tierLabel' | 'tierRank' | 'effect' | 'isLastOne' | 'conversionValue'> & {
  tiersBelow: number;
};

/** Best first: the ラストワン賞, S賞 or better, then by how many tiers stand below in the pack. */
const standing = (p: Arrangeable) => (p.isLastOne ? -3000 : isSOrBetter(p) ? -2000 - p.tiersBelow : -p.tiersBelow);

export interface PrizeBoxTier {
  label: string;
  effect: PrizeItem['effect'];
  count: number;
}

/**
 * The box's cards filtered by tier name and ordered, with the tier chips of the whole page.
 * @example arrangePrizeBox(items, { sort: 'value', tier: null }).prizes[0] // the most valuable card
 */
export function arrangePrizeBox<P extends Arrangeable>(
  items: readonly P[],
  view: PrizeBoxView,
): { prizes: P[]; prizeTiers: PrizeBoxTier[] } {
  const tiers = new Map<string, PrizeBoxTier & { best: number }>();
  for (const p of items) {
    const tier = tiers.get(p.tierLabel) ?? { label: p.tierLabel, effect: p.effect, count: 0, best: 0 };
    tier.count += 1;
    tier.best = Math.min(tier.best, standing(p));
    tiers.set(p.tierLabel, tier);
  }
  const shown = view.tier ? items.filter((p) => p.tierLabel === view.tier) : [...items];
  if (view.sort === 'tier') shown.sort((a, b) => standing(a) - standing(b) || b.conversionValue - a.conversionValue);
  if (view.sort === 'value') shown.sort((a, b) => b.conversionValue - a.conversionValue || standing(a) - standing(b));
  return {
    prizes: shown,
    prizeTiers: [...tiers.values()].sort((a, b) => a.best - b.best).map(({ best: _best, ...t }) => t),
  };
}

const chip = (active: boolean) =>
  `flex min-h-10 shrink-0 items-center gap-1 rounded-full border px-3 text-sm font-bold ${active ? 'border-primary-ink bg-primary-ink text-white' : 'border-line bg-white text-ink hover:bg-canvas'}`;

/**
 * @example <PrizeBoxTools filter="pending" view={view} tiers={tiers} scanned={100} more={false} />
 */
export function PrizeBoxTools({
  filter,
  view,
  tiers,
  scanned,
  more,
}: {
  filter: PrizeStatus;
  view: PrizeBoxView;
  tiers: PrizeBoxTier[];
  /** Cards the filter and order went over (the newest page of the status). */
  scanned: number;
  more: boolean;
}) {
  const href = (changes: Partial<PrizeBoxView>) => {
    const next = { ...view, ...changes };
    const params = new URLSearchParams({ tab: 'prizes', filter });
    if (next.tier) params.set('tier', next.tier);
    if (next.sort !== 'new') params.set('sort', next.sort);
    return `/mypage?${params.toString()}`;
  };
  return (
    <div className="flex flex-col gap-2" data-testid="prize-box-tools">
      <nav aria-label="賞で絞り込む" className="flex gap-2 overflow-x-auto pb-1">
        <AppLink
          to={href({ tier: null })}
          replace
          preventScrollReset
          aria-current={view.tier === null ? 'true' : undefined}
          className={chip(view.tier === null)}
        >
          すべての賞
        </AppLink>
        {tiers.map((t) => (
          <AppLink
            key={t.label}
            to={href({ tier: t.label })}
            replace
            preventScrollReset
            aria-current={view.tier === t.label ? 'true' : undefined}
            className={chip(view.tier === t.label)}
            data-testid="prize-tier-filter"
            data-tier={t.label}
          >
            <span aria-hidden="true" className={`size-2.5 rounded-full ${TIER_CHIP[t.effect] ?? TIER_CHIP.normal}`} />
            {t.label}
            <span className={`rounded-full px-1.5 text-xs ${view.tier === t.label ? 'bg-white/25' : 'bg-canvas'}`}>
              {formatCoins(t.count)}
            </span>
          </AppLink>
        ))}
      </nav>
      <nav aria-label="並べ替え" className="flex items-center gap-1 text-sm">
        <span className="shrink-0 text-muted">並び順</span>
        {PRIZE_BOX_SORTS.map((s) => (
          <AppLink
            key={s.id}
            to={href({ sort: s.id })}
            replace
            preventScrollReset
            aria-current={view.sort === s.id ? 'true' : undefined}
            className={`flex min-h-10 items-center rounded-full px-2.5 font-bold ${view.sort === s.id ? 'bg-canvas text-ink underline decoration-2 underline-offset-4' : 'text-muted hover:bg-canvas'}`}
            data-testid={`prize-sort-${s.id}`}
          >
            {s.label}
          </AppLink>
        ))}
      </nav>
      {more && (
        <p className="text-xs text-muted" data-testid="prize-box-arranged-scope">
          新しい{formatCoins(scanned)}枚の中で絞り込み・並べ替えをしています。
        </p>
      )}
    </div>
  );
}
