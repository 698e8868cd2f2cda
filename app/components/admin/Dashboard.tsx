// The admin home's dashboard: sales, the 資金決済法 balance, draws, members, sell-through and shipping,
// each section present only when the loader sent it (the staff member holds its permission).
import type { Dashboard } from '~/controllers/admin-dashboard.server';
import { AppLink } from '~/components/AppLink';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { DailyBarChart, RankedBarChart } from './DashboardCharts';

const yen = new Intl.NumberFormat('ja-JP');
const dayJa = (day: string) => `${day.slice(0, 4)}年${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;

/** The dashboard, or nothing when the staff member may read none of its sections. */
export function DashboardSection({ dashboard }: { dashboard: Dashboard }) {
  const { sales, unusedPaid, unusedPaidMissing, draws, members, sellThrough, shipping } = dashboard;
  if (!sales && !unusedPaidMissing && !unusedPaid && !draws && !members && !sellThrough && !shipping) return null;
  return (
    <section className="mt-6" aria-labelledby="dashboard">
      <h2 id="dashboard" className="text-xl font-black">
        ダッシュボード
      </h2>
      <p className="mt-1 text-xs text-muted">
        {`${dayJa(dashboard.days.from)}〜${dayJa(dashboard.days.to)}（日本時間）。集計は1分ごとに数分遅れで更新されます`}
        {dashboard.foldedTo
          ? `（${formatStaffDateTime(dashboard.foldedTo)} までを集計済み）。`
          : '（まだ集計されていません）。'}
      </p>
      {shipping || unusedPaid || unusedPaidMissing ? (
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          {shipping ? (
            <>
              <Figure label="未発送の発送依頼" value={`${yen.format(shipping.open)}件`} to="/admin/shipping" />
              <Figure
                label="発送期限を過ぎた依頼"
                value={`${yen.format(shipping.overdue)}件`}
                to="/admin/shipping"
                alert={shipping.overdue > 0}
              />
            </>
          ) : null}
          {unusedPaid ? (
            <UnusedPaid unusedPaid={unusedPaid} />
          ) : unusedPaidMissing ? (
            <Figure label="未使用の有償コイン残高" value="集計待ち" to="/admin/reports/unused-paid" />
          ) : null}
        </dl>
      ) : null}
      <div className="mt-4 grid gap-4">
        {sales ? (
          <>
            <DailyBarChart
              title={`売上（日別・入金ベース、30日合計 ${yen.format(sales.total)}円）`}
              unit="円"
              points={sales.byDay.map((d) => ({ key: d.day, value: d.value }))}
            />
            <RankedBarChart
              title="売上（決済方法別・30日）"
              unit="円"
              points={sales.byMethod.map((m) => ({ key: m.label, value: m.amountJpy }))}
              notes={sales.byMethod.map((m) => `${yen.format(m.orders)}件`)}
            />
          </>
        ) : null}
        {draws ? (
          <>
            <DailyBarChart
              title="ガチャ回数（日別）"
              unit="回"
              points={draws.draws.map((d) => ({ key: d.day, value: d.value }))}
            />
            <DailyBarChart
              title="排出口数（日別）"
              unit="口"
              points={draws.lots.map((d) => ({ key: d.day, value: d.value }))}
            />
          </>
        ) : null}
        {members ? (
          <>
            <DailyBarChart
              title="アクティブ会員（その日にガチャを引いた会員・日別）"
              unit="人"
              points={members.active.map((d) => ({ key: d.day, value: d.value }))}
            />
            <DailyBarChart
              title="新規会員（日別）"
              unit="人"
              points={members.newMembers.map((d) => ({ key: d.day, value: d.value }))}
            />
          </>
        ) : null}
        {sellThrough ? (
          <RankedBarChart
            title="販売率の高いパック（販売済み口数 ÷ 総口数）"
            unit="%"
            max={100}
            points={sellThrough.map((p) => ({ key: p.title, value: p.percent }))}
            notes={sellThrough.map((p) => `${yen.format(p.sold)} / ${yen.format(p.total)}口`)}
          />
        ) : null}
      </div>
    </section>
  );
}

function Figure({ label, value, to, alert }: { label: string; value: string; to: string; alert?: boolean }) {
  return (
    <div className={`rounded-2xl border bg-white p-4 ${alert ? 'border-primary' : 'border-line'}`}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={`mt-1 text-2xl font-black tabular-nums ${alert ? 'text-primary-ink' : ''}`}>
        <AppLink to={to} className="hover:underline">
          {value}
        </AppLink>
      </dd>
    </div>
  );
}

function UnusedPaid({ unusedPaid }: { unusedPaid: NonNullable<Dashboard['unusedPaid']> }) {
  const percent = Math.min(100, Math.round((unusedPaid.unusedPaidCoins * 100) / unusedPaid.thresholdJpy));
  return (
    <div
      className={`rounded-2xl border bg-white p-4 ${unusedPaid.exceedsThreshold ? 'border-primary' : 'border-line'}`}
    >
      <dt className="text-xs text-muted">{`未使用の有償コイン残高（次の基準日 ${dayJa(unusedPaid.baseDate)}）`}</dt>
      <dd className="mt-1">
        <AppLink to="/admin/reports/unused-paid" className="text-2xl font-black tabular-nums hover:underline">
          {`${yen.format(unusedPaid.unusedPaidCoins)}円`}
        </AppLink>
        <meter
          className="mt-2 block w-full"
          min={0}
          max={unusedPaid.thresholdJpy}
          high={unusedPaid.thresholdJpy * 0.8}
          value={Math.min(unusedPaid.unusedPaidCoins, unusedPaid.thresholdJpy)}
          aria-label={`基準額 ${yen.format(unusedPaid.thresholdJpy)}円に対して ${percent}%`}
        />
        <span className="mt-1 block text-xs text-muted">
          {`基準額 ${yen.format(unusedPaid.thresholdJpy)}円の ${percent}%`}
          {unusedPaid.exceedsThreshold ? '：基準額を超えています（届出と供託が必要です）' : ''}
          {`。${formatStaffDateTime(unusedPaid.computedAt)} 時点の集計。`}
        </span>
      </dd>
    </div>
  );
}
