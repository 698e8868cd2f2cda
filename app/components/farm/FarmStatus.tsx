// The farm's header strip and its paused banner (decision 044): today's farm coins against the daily
// cap, the streak, the level, and how long until the Japan-time day resets the cap and friends'
// watering. The reset counts down on the page's server clock.
import type { FarmView } from '#modules/farm/browser';
import { formatCountdownMs as formatCountdown } from '#modules/kernel/dates/countdown';

export function FarmStatus({ farm, now }: { farm: FarmView; now: number }) {
  const { coins, cap } = farm.today;
  const full = cap > 0 && coins >= cap;
  const reset = formatCountdown(Date.parse(farm.nextDayAt) - now, 'ja');
  return (
    <section aria-label="今日のファーム" className="rounded-2xl bg-white p-3 shadow-sm">
      <dl className="grid grid-cols-[1.4fr_1fr_1fr] gap-2 text-center">
        <div className="rounded-xl bg-amber-50 px-1 py-2">
          <dt className="text-xs text-muted">今日のコイン</dt>
          <dd className="text-lg font-black whitespace-nowrap tabular-nums" data-testid="farm-today-coins">
            {coins}
            <span className="text-xs font-bold text-muted"> / {cap} コイン</span>
          </dd>
        </div>
        <div className="rounded-xl bg-canvas px-1 py-2">
          <dt className="text-xs text-muted">連続プレイ</dt>
          <dd className="text-lg font-black" data-testid="farm-streak">
            {farm.streak > 0 ? `連続${farm.streak}日` : '0日'}
          </dd>
        </div>
        <div className="rounded-xl bg-canvas px-1 py-2">
          <dt className="text-xs text-muted">レベル</dt>
          <dd className="text-lg font-black">Lv.{farm.level}</dd>
        </div>
      </dl>
      <p className="mt-2 text-center text-xs text-muted">
        {full ? '今日の収穫コインは上限に達しました。' : null}
        {reset ? (
          <>
            上限と水やりのリセット（日本時間0時）まで
            <span className="inline-block font-bold tabular-nums">あと{reset}</span>
          </>
        ) : (
          '日付が変わりました。更新しています…'
        )}
      </p>
    </section>
  );
}

/** Shown instead of play while operators pause the farm. */
export function FarmPausedBanner() {
  return (
    <div role="status" className="rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <p className="font-bold">ファームは現在メンテナンス中です</p>
      <p className="mt-1">
        再開まで、植える・水やり・収穫・フレンドへの水やりはお休みです。しばらくしてからもう一度お越しください。
      </p>
    </div>
  );
}
