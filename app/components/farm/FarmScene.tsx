// The farm field (decision 044): a small sky and meadow drawn in CSS, and one real <button> per plot
// whose accessible name says the plot's state in words (plotLabel, with the countdown in Japanese
// units). What a sighted member reads on a tile (a short clock, 収穫OK, Lv.5で解放) repeats that name,
// so it is hidden from screen readers. Tiles animate lightly (farm.css) and stay still when the member
// prefers reduced motion.
import type { FarmView } from '#modules/farm/browser';
import { formatCountdownMs as formatCountdown } from '#modules/kernel/dates/countdown';
import { CropArt, FarmIcon } from './CropArt';
import { plotAt, plotLabel } from './farm-state';
import './farm.css';

/** What the field shows for a moment after an answer: drops on a watered plot, a coin over a harvest. */
export interface PlotEffects {
  /** Plots being watered (drops fall). */
  watering: ReadonlySet<number>;
  /** Plots just harvested: the coins to pop (0 shows 上限). `id` restarts the animation. */
  coinPops: ReadonlyMap<number, { coins: number; id: number }>;
}

const NO_EFFECTS: PlotEffects = { watering: new Set(), coinPops: new Map() };

/** A tile's short caption (the button's name says it in full). */
function caption(state: string, timeLeftMs: number, unlockLevel: number | null): string {
  switch (state) {
    case 'locked':
      return `Lv.${unlockLevel ?? '?'}で解放`;
    case 'empty':
      return 'タップして植える';
    case 'growing':
      return formatCountdown(timeLeftMs);
    case 'ripe':
      return '収穫できます';
    default:
      return '枯れました';
  }
}

export function FarmScene({
  farm,
  now,
  selectedPlot,
  onSelect,
  effects = NO_EFFECTS,
}: {
  farm: FarmView;
  now: number;
  selectedPlot?: number | null;
  onSelect: (plotNo: number) => void;
  effects?: PlotEffects;
}) {
  return (
    <div className="relative overflow-hidden rounded-3xl bg-gradient-to-b from-sky-200 via-sky-100 to-lime-200 px-3 pt-8 pb-4 shadow-inner">
      <div
        aria-hidden="true"
        className="absolute top-2 right-4 size-9 rounded-full bg-amber-300 shadow-[0_0_24px_8px_rgba(252,211,77,0.6)]"
      />
      <div aria-hidden="true" className="absolute inset-x-0 top-7 h-2 border-y-2 border-amber-700/40 bg-amber-100/60" />
      <ul className="relative grid grid-cols-2 gap-3" aria-label="畑">
        {farm.plots.map((plot) => {
          const at = plotAt(plot, farm, now);
          const locked = at.state === 'locked';
          const pop = effects.coinPops.get(plot.plotNo);
          const waterOpen = at.state === 'growing' && at.canWater && !farm.paused;
          const badgeTone =
            at.state === 'ripe'
              ? 'bg-amber-400 text-ink'
              : at.state === 'withered'
                ? 'bg-stone-600 text-white'
                : locked
                  ? 'bg-zinc-700 text-white'
                  : 'bg-white/90 text-ink';
          return (
            <li key={plot.plotNo} className="relative">
              <button
                type="button"
                aria-disabled={locked || undefined}
                aria-haspopup={locked ? undefined : 'dialog'}
                aria-pressed={selectedPlot === plot.plotNo ? true : undefined}
                data-plot={plot.plotNo}
                data-state={at.state}
                onClick={() => !locked && onSelect(plot.plotNo)}
                className={`group relative flex w-full ${locked ? 'aspect-[5/2] sm:aspect-[4/1]' : 'aspect-[5/4] sm:aspect-[2/1]'} flex-col items-center justify-end overflow-hidden rounded-2xl border-b-4 ${locked ? '' : 'pb-6'} transition-transform active:scale-95 ${
                  locked
                    ? 'cursor-not-allowed border-zinc-500 bg-zinc-300/80'
                    : 'border-amber-900 farm-soil hover:brightness-110'
                } ${at.state === 'ripe' ? 'farm-ripe ring-4 ring-amber-300' : ''}`}
              >
                {/* The name in words; everything drawn below is hidden from screen readers and repeats it. */}
                <span className="sr-only">{plotLabel(plot, at)}</span>
                {plot.seed && at.state !== 'empty' ? (
                  <span
                    aria-hidden="true"
                    className="absolute top-1.5 left-1.5 max-w-[85%] truncate rounded-full bg-white/85 px-2 text-xs font-bold text-ink"
                  >
                    {plot.seed.name}
                  </span>
                ) : null}
                {at.stage != null && plot.seed ? (
                  <CropArt art={plot.seed.art} stage={at.stage} className="h-[80%] w-auto" />
                ) : locked ? (
                  <span aria-hidden="true" className="m-auto flex items-center gap-1 text-sm font-bold text-zinc-800">
                    <FarmIcon name="lock" className="size-5" />
                    {caption(at.state, at.timeLeftMs, plot.unlockLevel)}
                  </span>
                ) : (
                  <span aria-hidden="true" className="mb-2 text-4xl leading-none font-black text-amber-100/90">
                    ＋
                  </span>
                )}
                {locked ? null : (
                  <span
                    aria-hidden="true"
                    className={`absolute inset-x-1.5 bottom-1.5 flex items-center justify-center gap-0.5 truncate rounded-full px-1.5 py-0.5 text-xs font-bold tabular-nums ${waterOpen ? 'bg-sky-100 text-sky-950 ring-2 ring-sky-500' : badgeTone}`}
                  >
                    {waterOpen ? <FarmIcon name="drop" className="size-3.5" /> : null}
                    {waterOpen ? '水やりOK・' : at.state === 'growing' ? '収穫まで ' : ''}
                    {caption(at.state, at.timeLeftMs, plot.unlockLevel)}
                  </span>
                )}
                {effects.watering.has(plot.plotNo) ? (
                  <span
                    aria-hidden="true"
                    className="pointer-events-none absolute inset-x-0 top-3 flex justify-center gap-4"
                  >
                    <FarmIcon name="drop" className="farm-drop size-5" />
                    <FarmIcon name="drop" className="farm-drop size-5" />
                    <FarmIcon name="drop" className="farm-drop size-5" />
                  </span>
                ) : null}
                {pop ? (
                  <span
                    key={pop.id}
                    aria-hidden="true"
                    className="farm-coin-pop pointer-events-none absolute top-6 flex items-center gap-1 rounded-full bg-amber-300 px-2 py-0.5 text-sm font-black text-ink shadow"
                  >
                    <FarmIcon name="coin" />
                    {pop.coins > 0 ? `+${pop.coins}` : '上限'}
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
