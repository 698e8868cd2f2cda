// The farm page's game (decision 044): the header strip, the field, the selected plot's sheet and the
// friends. State is optimistic but reconciled: each plot posts its intentions through its own keyed
// fetcher (so taps on two plots never cancel each other), the field shows what a pending intention is
// expected to do at once (expectedFarm), and every answer replaces the whole farm with the server's
// (the newest of the loader's view and the answers, by the server's `now`). A refusal simply drops the
// expected picture and its words appear under the field, where the member is looking. Countdowns tick
// on the server's clock; when one runs out on the page, the loader is read again so the server confirms.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useFetcher, useFetchers, useRevalidator } from 'react-router';
import type { FarmActionAnswer, FarmLoaderData, FarmView } from '~/lib/farm-contract';
import { FarmScene, type PlotEffects } from './FarmScene';
import { FarmPausedBanner, FarmStatus } from './FarmStatus';
import { FarmFriends } from './FarmFriends';
import { PlotSheet } from './PlotSheet';
import { expectedFarm, growTimeText, intentionOf, plotAt, tapKey, type FarmIntention } from './farm-state';
import { useServerClock } from './useServerClock';

const plotKey = (plotNo: number) => `farm-plot-${plotNo}`;

type Notice = { plotNo: number; text: string; tone: 'ok' | 'error' };

/** The newer of two views of the farm, by the server's clock when each was made. */
const newer = (a: FarmView, b: FarmView | null): FarmView => (b && Date.parse(b.now) > Date.parse(a.now) ? b : a);

/** The words an answer leaves under the field. */
export function answerNotice(plotNo: number, answer: FarmActionAnswer): Notice {
  if (!answer.ok) return { plotNo, text: `畑${plotNo}：${answer.message}`, tone: 'error' };
  const { action, coins, cappedCoins } = answer.result;
  const plot = `畑${plotNo}`;
  switch (action) {
    case 'plant':
      return { plotNo, text: `${plot}に種を植えました`, tone: 'ok' };
    case 'water':
      return { plotNo, text: `${plot}に水やりしました。収穫が早くなりました`, tone: 'ok' };
    case 'harvest':
      return {
        plotNo,
        text:
          coins > 0
            ? `${plot}を収穫しました。+${coins}コイン${cappedCoins > 0 ? `（上限のため${cappedCoins}コインは対象外）` : ''}`
            : `${plot}を収穫しました。今日の上限に達しているため、コインは増えません`,
        tone: 'ok',
      };
    case 'clear':
      return { plotNo, text: `${plot}を片付けました`, tone: 'ok' };
    default:
      return { plotNo, text: '完了しました', tone: 'ok' };
  }
}

/** Keeps one plot's fetcher alive while the sheet opens and closes, and hands its answers up. */
function PlotChannel({
  plotNo,
  onAnswer,
}: {
  plotNo: number;
  onAnswer: (plotNo: number, answer: FarmActionAnswer) => void;
}) {
  const fetcher = useFetcher<FarmActionAnswer>({ key: plotKey(plotNo) });
  useEffect(() => {
    if (fetcher.data) onAnswer(plotNo, fetcher.data);
  }, [fetcher.data, plotNo, onAnswer]);
  return null;
}

export function FarmGame({ data }: { data: FarmLoaderData }) {
  const [answered, setAnswered] = useState<FarmView | null>(null);
  const base = newer(data.farm, answered);
  const now = useServerClock(base.now);
  const [selected, setSelected] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [watering, setWatering] = useState<ReadonlySet<number>>(new Set());
  const [coinPops, setCoinPops] = useState<PlotEffects['coinPops']>(new Map());
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), notice.tone === 'error' ? 12_000 : 5000);
    return () => clearTimeout(timer);
  }, [notice]);

  // Every pending intention on a plot, pictured on the server's latest farm.
  const fetchers = useFetchers();
  const pendingPlots = new Set<number>();
  let farm = base;
  for (const fetcher of fetchers) {
    if (!fetcher.key.startsWith('farm-plot-') || !fetcher.formData) continue;
    const intention = intentionOf(fetcher.formData);
    if (!intention?.plotNo) continue;
    pendingPlots.add(intention.plotNo);
    farm = expectedFarm(farm, intention, now);
  }

  // A refusal (a 4xx answer) reads nothing again by itself: read the farm again, since the refusal
  // usually means the page was behind (another tab, another device).
  const revalidateRef = useRef(revalidator.revalidate);
  revalidateRef.current = revalidator.revalidate;
  const onAnswer = useCallback((plotNo: number, answer: FarmActionAnswer) => {
    setNotice(answerNotice(plotNo, answer));
    if (!answer.ok) {
      void revalidateRef.current();
      return;
    }
    setAnswered((current) => newer(answer.result.farm, current));
    if (answer.result.action === 'harvest') {
      setCoinPops((current) => new Map(current).set(plotNo, { coins: answer.result.coins, id: Date.now() }));
      setTimeout(
        () =>
          setCoinPops((current) => {
            const next = new Map(current);
            next.delete(plotNo);
            return next;
          }),
        1600,
      );
    }
  }, []);

  // The submit of the selected plot's fetcher (keyed, so PlotChannel sees its answer).
  const selectedFetcher = useFetcher<FarmActionAnswer>({ key: plotKey(selected ?? 0) });
  const submit = (intention: FarmIntention) => {
    if (intention.plotNo == null) return;
    const form: Record<string, string> = { intent: intention.intent, plotNo: String(intention.plotNo), key: tapKey() };
    if (intention.seedId) form.seedId = intention.seedId;
    setNotice(null);
    selectedFetcher.submit(form, { method: 'post' });
    setSelected(null);
    if (intention.intent === 'water') {
      const plotNo = intention.plotNo;
      setWatering((current) => new Set(current).add(plotNo));
      setTimeout(
        () =>
          setWatering((current) => {
            const next = new Set(current);
            next.delete(plotNo);
            return next;
          }),
        2400,
      );
    }
  };

  // When a countdown runs out on the page (a crop ripens or withers, the day changes), read the farm
  // again so the server confirms; at most once per view and every few seconds.
  const lastCheck = useRef<{ view: string; at: number }>({ view: '', at: 0 });
  useEffect(() => {
    const changed =
      now >= Date.parse(base.nextDayAt) || base.plots.some((plot) => plotAt(plot, base, now).state !== plot.state);
    if (!changed || revalidator.state !== 'idle' || pendingPlots.size > 0) return;
    if (lastCheck.current.view === base.now || Date.now() - lastCheck.current.at < 5000) return;
    lastCheck.current = { view: base.now, at: Date.now() };
    void revalidator.revalidate();
  });

  const selectedPlot = farm.plots.find((plot) => plot.plotNo === selected && plot.state !== 'locked') ?? null;
  return (
    <div className="flex flex-col gap-3">
      {farm.paused ? <FarmPausedBanner /> : null}
      <FarmStatus farm={farm} now={now} />
      {farm.plots.map((plot) => (
        <PlotChannel key={plot.plotNo} plotNo={plot.plotNo} onAnswer={onAnswer} />
      ))}
      <FarmScene
        farm={farm}
        now={now}
        selectedPlot={selected}
        onSelect={(plotNo) => {
          setNotice(null);
          setSelected(plotNo);
        }}
        effects={{ watering, coinPops }}
      />
      {/* The answer's words float at the bottom of the screen, where the member's eyes and thumb are,
          whichever plot they tapped; a refusal stays until the next tap or a little longer than a success. */}
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-tabbar flex justify-center px-3 pb-[calc(env(safe-area-inset-bottom)+1rem)]">
        <p
          aria-live="polite"
          data-testid="farm-notice"
          className={`max-w-md text-center text-sm font-bold ${
            notice
              ? `rounded-2xl px-4 py-3 shadow-lg ring-1 ${notice.tone === 'error' ? 'bg-red-50 text-red-800 ring-red-200' : 'bg-emerald-50 text-emerald-900 ring-emerald-200'}`
              : ''
          }`}
        >
          {notice?.text ?? ''}
        </p>
      </div>
      {selectedPlot ? (
        <PlotSheet
          farm={farm}
          plot={selectedPlot}
          at={plotAt(selectedPlot, farm, now)}
          busy={pendingPlots.has(selectedPlot.plotNo)}
          message={notice && notice.plotNo === selectedPlot.plotNo ? notice : null}
          onIntent={submit}
          onClose={() => setSelected(null)}
        />
      ) : null}
      <FarmFriends friends={data.friends} paused={farm.paused} friendWaterCoins={farm.rules.friendWaterCoins} />
      <FarmHowTo farm={farm} />
    </div>
  );
}

/** The rules in plain words, for a first visit. */
function FarmHowTo({ farm }: { farm: FarmView }) {
  const { rules } = farm;
  return (
    <details className="rounded-2xl bg-white p-4 text-sm shadow-sm">
      <summary className="cursor-pointer font-bold">遊び方</summary>
      <ol className="mt-2 list-decimal space-y-1 pl-5 leading-relaxed">
        <li>空いている畑をタップして、種を選んで植えます。</li>
        <li>
          育っている畑には{growTimeText(rules.waterCooldownMinutes)}に1回水やりでき、収穫までの残り時間が
          {rules.waterSpeedupPercent}%短くなります。
        </li>
        <li>
          実ったら収穫すると無償コインがもらえます（1日{rules.dailyCoinCap}コインまで、日本時間の0時にリセット）。
        </li>
        <li>実ってから{growTimeText(rules.witherAfterMinutes)}たつと枯れてしまうので、早めに収穫しましょう。</li>
        <li>レベルが上がると、畑と種が増えます。</li>
      </ol>
    </details>
  );
}
