// The farm field (decision 044): a small sky and meadow drawn in CSS, and one real <button> per plot
// whose accessible name says the plot's state in words (plotLabel, with the countdown in Japanese
// units). What a sighted member reads on a tile (a short clock, 収穫OK, Lv.5で解放) repeats that name,
// so it is hidden from screen readers. Tiles animate lightly (farm.css) and stay still when the member
// prefers reduced motion.
import type { FarmView } from '#modules/farm/browser';
import { formatCountdown } from '~/lib/dates';
import { CropArt } from './CropArt';
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
      <ul className="relative grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="畑">
        {farm.plots.map((plot) => {
          const at = plotAt(plot, farm, now);
          const locked = at.state === 'locked';
          const pop = effects.coinPops.get(plot.plotNo);
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
                aria-label={plotLabel(plot, at)}
                aria-disabled={locked || undefined}
                aria-haspopup={locked ? undefined : 'dialog'}
                aria-pressed={selectedPlot === plot.plotNo ? true : undefined}
                data-plot={plot.plotNo}
                data-state={at.state}
                onClick={() => !locked && onSelect(plot.plotNo)}
                className={`group relative flex aspect-[5/4] w-full flex-col items-center justify-end overflow-hidden rounded-2xl border-b-4 pb-7 transition-transform active:scale-95 ${
                  locked
                    ? 'cursor-not-allowed border-zinc-500 bg-zinc-400/70'
                    : 'border-amber-900 bg-[repeating-linear-gradient(0deg,#8a5a32_0_6px,#7a4e2a_6px_12px)] hover:brightness-110'
                } ${at.state === 'ripe' ? 'farm-ripe ring-4 ring-amber-300' : ''}`}
              >
                {at.stage != null && plot.seed ? (
                  <CropArt art={plot.seed.art} stage={at.stage} className="h-[78%] w-auto" />
                ) : locked ? (
                  <span aria-hidden="true" className="mb-2 text-3xl">
                    🔒
                  </span>
                ) : (
                  <span aria-hidden="true" className="mb-3 text-3xl font-black text-amber-100/80">
                    ＋
                  </span>
                )}
                {at.state === 'growing' && at.canWater && !farm.paused ? (
                  <span
                    aria-hidden="true"
                    className="absolute top-1.5 left-1.5 rounded-full bg-sky-500 px-1.5 text-xs text-white"
                  >
                    💧水やりOK
                  </span>
                ) : null}
                <span
                  aria-hidden="true"
                  className={`absolute inset-x-1.5 bottom-1.5 truncate rounded-full px-2 py-0.5 text-center text-xs font-bold tabular-nums ${badgeTone}`}
                >
                  {plot.seed && at.state !== 'empty' ? `${plot.seed.name}・` : ''}
                  {caption(at.state, at.timeLeftMs, plot.unlockLevel)}
                </span>
                {effects.watering.has(plot.plotNo) ? (
                  <span
                    aria-hidden="true"
                    className="pointer-events-none absolute inset-x-0 top-2 flex justify-center gap-3 text-lg"
                  >
                    <span className="farm-drop">💧</span>
                    <span className="farm-drop">💧</span>
                    <span className="farm-drop">💧</span>
                  </span>
                ) : null}
                {pop ? (
                  <span
                    key={pop.id}
                    aria-hidden="true"
                    className="farm-coin-pop pointer-events-none absolute top-3 rounded-full bg-amber-300 px-2 py-0.5 text-sm font-black text-ink shadow"
                  >
                    {pop.coins > 0 ? `🪙+${pop.coins}` : '上限'}
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
