// The farm's daily economy: coins granted, members playing, streaks, over a chosen range.
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { DailyBarChart } from '~/components/admin/DashboardCharts';
import { inputClass } from '~/components/admin/fields';
import type { FarmPage } from './NumberInput';

const numberJa = new Intl.NumberFormat('ja-JP');
const dayJa = (day: string) => `${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;

export function EconomySection({ data }: { data: FarmPage }) {
  const { economy, range, rangeError, limits } = data;
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location?.pathname === '/admin/farm';
  const t = economy.totals;
  return (
    <section aria-labelledby="farm-economy" className="mt-8">
      <h2 id="farm-economy" className="text-lg font-bold">
        日別の経済（日本時間）
      </h2>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
        <label className="text-sm font-bold" htmlFor="economy-from">
          開始日
          <input
            id="economy-from"
            type="date"
            name="from"
            defaultValue={range.from}
            aria-invalid={rangeError ? true : undefined}
            className={inputClass}
          />
        </label>
        <label className="text-sm font-bold" htmlFor="economy-to">
          終了日
          <input
            id="economy-to"
            type="date"
            name="to"
            defaultValue={range.to}
            aria-invalid={rangeError ? true : undefined}
            className={inputClass}
          />
        </label>
        <Button type="submit" variant="secondary" loading={busy}>
          表示する
        </Button>
        <p className="w-full text-xs text-muted">{limits.economyMaxDays}日まで。既定は今日までの14日間です。</p>
        {rangeError ? (
          <p role="alert" className="w-full rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
            {rangeError}（今日までの14日間を表示しています）
          </p>
        ) : null}
      </Form>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ['付与した無償コイン', `${numberJa.format(t.coins)}コイン`],
          ['遊んだ会員（重複なし）', `${numberJa.format(t.members)}人`],
          ['収穫', `${numberJa.format(t.harvests)}回`],
          [
            '水やり（自分の畑／友達の畑）',
            `${numberJa.format(t.waterings)}回／${numberJa.format(t.friendWaterings)}回`,
          ],
          ['3日以上連続した会員', `${numberJa.format(t.streak3)}人`],
          ['7日以上連続した会員', `${numberJa.format(t.streak7)}人`],
          ['最長の連続日数', `${numberJa.format(t.longestStreak)}日`],
          ['のべ人数（人・日）', `${numberJa.format(t.playerDays)}`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-2xl border border-line bg-white p-3">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="mt-1 text-lg font-black tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4">
        <DailyBarChart
          title={`ファームが付与した無償コイン（日別、${dayJa(economy.from)}〜${dayJa(economy.to)}）`}
          unit="コイン"
          points={economy.days.map((d) => ({ key: d.day, value: d.coins }))}
        />
      </div>
      <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white p-4">
        <table className="w-full min-w-[720px] text-right text-sm tabular-nums">
          <caption className="mb-2 text-left text-sm font-bold">日別の内訳</caption>
          <thead>
            <tr className="border-b border-line text-xs">
              <th scope="col" className="py-2 pr-2 text-left">
                日付
              </th>
              <th scope="col" className="py-2 pr-2">
                無償コイン
              </th>
              <th scope="col" className="py-2 pr-2">
                遊んだ会員
              </th>
              <th scope="col" className="py-2 pr-2">
                収穫
              </th>
              <th scope="col" className="py-2 pr-2">
                水やり
              </th>
              <th scope="col" className="py-2 pr-2">
                友達の畑
              </th>
              <th scope="col" className="py-2 pr-2">
                3日以上連続
              </th>
              <th scope="col" className="py-2 pr-2">
                7日以上連続
              </th>
              <th scope="col" className="py-2">
                最長連続
              </th>
            </tr>
          </thead>
          <tbody>
            {economy.days.map((d) => (
              <tr key={d.day} className={`border-b border-line last:border-0 ${d.players ? '' : 'text-muted'}`}>
                <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                  {d.day}
                </th>
                <td className="py-1.5 pr-2">{numberJa.format(d.coins)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.players)}人</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.harvests)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.waterings)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.friendWaterings)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.streak3)}人</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.streak7)}人</td>
                <td className="py-1.5">{d.longestStreak ? `${d.longestStreak}日` : '—'}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t-2 border-ink font-bold">
              <th scope="row" className="py-2 pr-2 text-left">
                合計
              </th>
              <td className="py-2 pr-2">{numberJa.format(t.coins)}</td>
              <td className="py-2 pr-2">のべ{numberJa.format(t.playerDays)}人</td>
              <td className="py-2 pr-2">{numberJa.format(t.harvests)}</td>
              <td className="py-2 pr-2">{numberJa.format(t.waterings)}</td>
              <td className="py-2 pr-2">{numberJa.format(t.friendWaterings)}</td>
              <td className="py-2 pr-2">{numberJa.format(t.streak3)}人</td>
              <td className="py-2 pr-2">{numberJa.format(t.streak7)}人</td>
              <td className="py-2">{t.longestStreak ? `${t.longestStreak}日` : '—'}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
