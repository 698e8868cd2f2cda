// /admin/reports/unused-paid: the unused paid-coin balance at a base date (資金決済法), against the
// ¥10,000,000 threshold, with the paid coins issued in the half-year.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/reports-unused-paid';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { unusedPaidReportLoader } from '~/controllers/admin-reports.server';

export const handle = { title: '未使用残高（資金決済法）' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return unusedPaidReportLoader(context.get(shopRequestContext), request);
}

const yen = (n: number) => `¥${n.toLocaleString('ja-JP')}`;

export default function UnusedPaidReportPage({ loaderData }: Route.ComponentProps) {
  const { dates, report } = loaderData;
  const navigation = useNavigation();
  const share = Math.min(100, Math.round((report.unusedPaidCoins / report.thresholdJpy) * 100));
  return (
    <div className="max-w-3xl">
      <h1 className="text-2xl font-black">未使用残高（資金決済法）</h1>
      <p className="mt-1 text-sm text-muted">
        基準日（3月31日・9月30日）の終わり（日本時間）に、有効期限内で未使用の有償コイン（1コイン＝1円）の合計です。
        {yen(report.thresholdJpy)}
        を超えると、届出と、超えた基準日の未使用残高の半額以上の発行保証金の供託などが必要です。
      </p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="text-xs font-bold">
          基準日
          <select
            name="date"
            defaultValue={report.baseDate}
            className="mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm"
          >
            {dates.map((d) => (
              <option key={d} value={d}>
                {d.replaceAll('-', '/')}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary" loading={navigation.state === 'loading'}>
          表示
        </Button>
      </Form>
      <section
        aria-labelledby="figure"
        className={`mt-6 rounded-2xl border-2 bg-white p-5 ${report.exceedsThreshold ? 'border-red-500' : 'border-line'}`}
      >
        <h2 id="figure" className="text-sm font-bold text-muted">
          {report.baseDate.replaceAll('-', '/')} 時点の未使用残高（{formatStaffDateTime(report.asOf)} 時点）
        </h2>
        <p className="mt-1 text-4xl font-black">{yen(report.unusedPaidCoins)}</p>
        <div
          className="mt-3 h-3 rounded-full bg-slate-100"
          role="meter"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={share}
          aria-label="基準額に対する割合"
        >
          <div
            className={`h-3 rounded-full ${report.exceedsThreshold ? 'bg-red-500' : 'bg-primary-ink'}`}
            style={{ width: `${share}%` }}
          />
        </div>
        <p className={`mt-2 text-sm font-bold ${report.exceedsThreshold ? 'text-danger' : ''}`}>
          {report.exceedsThreshold
            ? `基準額 ${yen(report.thresholdJpy)} を超えています。届出と発行保証金の供託が必要です。`
            : `基準額 ${yen(report.thresholdJpy)} の ${share}%（超えていません）。`}
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
          <dt className="text-muted">残高のある会員</dt>
          <dd className="text-right font-bold">{report.membersWithBalance.toLocaleString('ja-JP')}人</dd>
          <dt className="text-muted">この半期に発行した有償コイン</dt>
          <dd className="text-right font-bold">{yen(report.issuedInPeriod)}</dd>
        </dl>
      </section>
      <p className="mt-4 text-xs text-muted">
        コマンドラインでは <code>npm run shop -- report:unused-paid --date {report.baseDate}</code>{' '}
        で同じ値を出力します。
      </p>
    </div>
  );
}
