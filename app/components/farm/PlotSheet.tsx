// The sheet for the plot the member tapped (decision 044): an empty plot offers the seeds (name, grow
// time in Japanese units, reward; seeds above the member's level greyed with the level that opens
// them); a growing crop shows the time to harvest and the watering button, closed with the time until
// it opens; a ripe crop offers 収穫 with its coins and what today's cap does to them; a withered one
// offers 片付ける. While the farm is paused every action is disabled. The sheet only states intentions
// (onIntent); the page posts them and the server decides.
import type { FarmPlotView, FarmView } from '#modules/farm/browser';
import { formatCountdownMs as formatCountdown } from '#modules/kernel/dates/countdown';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { CropArt, FarmIcon } from './CropArt';
import {
  capNotice,
  growTimeText,
  harvestCoinsToday,
  waterWaitText,
  type FarmIntention,
  type PlotAt,
} from './farm-state';

export interface PlotSheetProps {
  farm: FarmView;
  plot: FarmPlotView;
  at: PlotAt;
  /** An intention for this plot is on its way to the server. */
  busy: boolean;
  /** The last answer's words for this plot (a refusal, or what a harvest gave). */
  message: { text: string; tone: 'ok' | 'error' } | null;
  onIntent: (intention: FarmIntention) => void;
  onClose: () => void;
}

const TITLES: Record<string, string> = {
  empty: '種を植える',
  growing: '育てています',
  ripe: '収穫できます',
  withered: '枯れてしまいました',
};

export function PlotSheet({ farm, plot, at, busy, message, onIntent, onClose }: PlotSheetProps) {
  const paused = farm.paused;
  const seedName = plot.seed?.name ?? '作物';
  const title = `畑${plot.plotNo}：${at.state === 'empty' ? TITLES.empty : `${seedName}（${TITLES[at.state] ?? ''}）`}`;
  return (
    <Sheet title={title} onClose={onClose} testId="farm-plot-sheet">
      <div className="mt-4 flex flex-col gap-4">
        {paused ? (
          <p className="rounded-xl bg-amber-50 px-3 py-2 text-sm font-bold text-amber-950">
            ファームは現在メンテナンス中です
          </p>
        ) : null}
        {at.state === 'empty' ? <SeedChoice farm={farm} plotNo={plot.plotNo} busy={busy} onIntent={onIntent} /> : null}
        {at.state !== 'empty' && at.stage != null && plot.seed ? (
          <div className="mx-auto flex size-32 items-end justify-center rounded-2xl farm-soil pb-2">
            <CropArt art={plot.seed.art} stage={at.stage} className="h-28 w-auto" />
          </div>
        ) : null}
        {at.state === 'growing' ? <Growing farm={farm} plot={plot} at={at} busy={busy} onIntent={onIntent} /> : null}
        {at.state === 'ripe' ? <Ripe farm={farm} plot={plot} at={at} busy={busy} onIntent={onIntent} /> : null}
        {at.state === 'withered' ? (
          <>
            <p className="text-center text-sm text-muted">
              収穫せずに時間がたったため、{seedName}は枯れてしまいました。片付けると、また種を植えられます。
            </p>
            <Button
              fullWidth
              size="lg"
              variant="plain"
              loading={busy}
              disabled={paused}
              onClick={() => onIntent({ intent: 'clear', plotNo: plot.plotNo })}
            >
              片付ける
            </Button>
          </>
        ) : null}
        <p
          aria-live="polite"
          className={`min-h-5 text-center text-sm font-bold ${message?.tone === 'error' ? 'text-red-700' : 'text-emerald-800'}`}
        >
          {message?.text ?? ''}
        </p>
        <Button variant="plain" fullWidth onClick={onClose} disabled={busy}>
          閉じる
        </Button>
      </div>
    </Sheet>
  );
}

function SeedChoice({
  farm,
  plotNo,
  busy,
  onIntent,
}: {
  farm: FarmView;
  plotNo: number;
  busy: boolean;
  onIntent: (intention: FarmIntention) => void;
}) {
  if (farm.seeds.length === 0) return <p className="text-center text-sm text-muted">植えられる種がありません。</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label="種">
      {farm.seeds.map((seed) => {
        const words = `${growTimeText(seed.growMinutes)}で収穫・${seed.rewardCoins}コイン`;
        return (
          <li key={seed.id}>
            <button
              type="button"
              disabled={seed.locked || farm.paused || busy}
              onClick={() => onIntent({ intent: 'plant', plotNo, seedId: seed.id })}
              className="flex min-h-14 w-full items-center gap-3 rounded-2xl border border-line bg-white px-3 py-2 text-left hover:bg-canvas disabled:cursor-not-allowed disabled:bg-canvas disabled:opacity-60"
            >
              <span className="sr-only">
                {seed.locked
                  ? `${seed.name}（レベル${seed.unlockLevel}で解放・${words}）`
                  : `${seed.name}を植える（${words}）`}
              </span>
              <CropArt art={seed.art} stage={3} className={`size-11 shrink-0 ${seed.locked ? 'grayscale' : ''}`} />
              <span aria-hidden="true" className="min-w-0 flex-1">
                <span className="block font-bold">{seed.name}</span>
                <span className="block text-xs text-muted">{growTimeText(seed.growMinutes)}で収穫</span>
                <span className={seed.locked ? 'block text-xs font-bold text-ink' : 'hidden'}>
                  レベル{seed.unlockLevel}で解放
                </span>
              </span>
              <span
                aria-hidden="true"
                className="flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2 py-1 text-sm font-black text-amber-900"
              >
                <FarmIcon name="coin" />
                {seed.rewardCoins}コイン
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function Growing({
  farm,
  plot,
  at,
  busy,
  onIntent,
}: {
  farm: FarmView;
  plot: FarmPlotView;
  at: PlotAt;
  busy: boolean;
  onIntent: (intention: FarmIntention) => void;
}) {
  const wait = waterWaitText(at);
  return (
    <>
      <div className="text-center">
        <p className="text-sm text-muted">収穫まで</p>
        <p className="text-2xl font-black tabular-nums" data-testid="farm-harvest-countdown">
          あと{formatCountdown(at.timeLeftMs, 'ja')}
        </p>
        <div
          role="progressbar"
          aria-label="成長"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(at.growth * 100)}
          className="mx-auto mt-2 h-2 w-48 overflow-hidden rounded-full bg-canvas"
        >
          <div className="h-full bg-lime-500" style={{ width: `${Math.round(at.growth * 100)}%` }} />
        </div>
        {plot.rewardCoins != null ? <p className="mt-2 text-sm">収穫すると {plot.rewardCoins}コイン</p> : null}
      </div>
      <Button
        fullWidth
        size="lg"
        loading={busy}
        disabled={farm.paused || !at.canWater}
        onClick={() => onIntent({ intent: 'water', plotNo: plot.plotNo })}
      >
        <FarmIcon name="drop" className="size-5" />
        水やりする
      </Button>
      <p className="-mt-2 text-center text-sm text-muted">
        {wait ??
          `水やりすると、収穫までの残り時間が${farm.rules.waterSpeedupPercent}%短くなります（${growTimeText(farm.rules.waterCooldownMinutes)}に1回）。`}
      </p>
    </>
  );
}

function Ripe({
  farm,
  plot,
  at,
  busy,
  onIntent,
}: {
  farm: FarmView;
  plot: FarmPlotView;
  at: PlotAt;
  busy: boolean;
  onIntent: (intention: FarmIntention) => void;
}) {
  const reward = plot.rewardCoins ?? 0;
  const coins = harvestCoinsToday(reward, farm.today);
  const notice = capNotice(reward, farm.today);
  const witherIn = formatCountdown(at.timeLeftMs, 'ja');
  return (
    <>
      <Button
        fullWidth
        size="lg"
        loading={busy}
        disabled={farm.paused}
        onClick={() => onIntent({ intent: 'harvest', plotNo: plot.plotNo })}
      >
        収穫する（+{coins}コイン）
      </Button>
      {notice ? (
        <p
          className="-mt-2 rounded-xl bg-amber-50 px-3 py-2 text-center text-sm font-bold text-amber-950"
          data-testid="farm-cap-notice"
        >
          {notice}
        </p>
      ) : null}
      {witherIn ? <p className="-mt-2 text-center text-sm text-muted">あと{witherIn}で枯れてしまいます</p> : null}
    </>
  );
}
