// The pack's numbers: lots, 還元率 and the projected margin, and the figures the publish confirmation
// states.
import { type Data, n } from './pack-parts';

const yen = (v: number) => (v < 0 ? `−¥${n(-v)}` : `¥${n(v)}`);
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export function Numbers({ data }: { data: Data }) {
  const { numbers } = data;
  return (
    <section aria-labelledby="numbers" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="numbers" className="text-lg font-black">
        数字
      </h2>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-muted">総口数</dt>
          <dd className="text-lg font-black">{n(numbers.totalLots)}口</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">売上（全口）</dt>
          <dd className="text-lg font-black">{n(numbers.salesCoins)}コイン</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">賞の交換価値の合計</dt>
          <dd className="text-lg font-black">{n(numbers.prizeValueCoins)}コイン</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">還元率</dt>
          <dd className="text-lg font-black">{pct(numbers.returnRate)}</dd>
        </div>
      </dl>
      {numbers.perDraw ? (
        <p className="mt-2 text-sm">
          1口の価値: 最低 {n(numbers.perDraw.min)}・中央値 {n(numbers.perDraw.median)}・平均{' '}
          {n(Math.round(numbers.perDraw.mean))}・最高 {n(numbers.perDraw.max)}コイン
        </p>
      ) : null}
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="text-left text-xs font-bold">回数ごとに会員が受け取る価値（交換コイン）</caption>
          <thead className="bg-slate-50 text-left text-xs">
            <tr>
              <th className="p-2">回数</th>
              <th className="p-2">価格</th>
              <th className="p-2">最低</th>
              <th className="p-2">平均</th>
              <th className="p-2">最高</th>
            </tr>
          </thead>
          <tbody>
            {numbers.options.map((o) => (
              <tr key={o.count} className="border-t border-line">
                <td className="p-2">{o.count === 1 ? '1回' : `${o.count}連`}</td>
                <td className="p-2">{n(o.price)}</td>
                <td className="p-2">{n(o.min)}</td>
                <td className="p-2">{n(o.mean)}</td>
                <td className="p-2">{n(o.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="text-left text-xs font-bold">賞ごとの確率</caption>
          <thead className="bg-slate-50 text-left text-xs">
            <tr>
              <th className="p-2">賞</th>
              <th className="p-2">数量</th>
              <th className="p-2">1口で当たる確率</th>
              <th className="p-2">交換コイン</th>
            </tr>
          </thead>
          <tbody>
            {numbers.tiers.map((t) => (
              <tr key={t.key} className="border-t border-line">
                <td className="p-2">{t.label}</td>
                <td className="p-2">{n(t.quantity)}</td>
                <td className="p-2">
                  {t.extra
                    ? t.chance === null
                      ? '口とは別の賞（到達で確定・最大数を利益に計上）'
                      : `口とは別の賞 ${pct(t.chance)}`
                    : pct(t.chance)}
                </td>
                <td className="p-2">{n(t.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className="mt-4 font-black">利益の見込み（全口が売れ、すべての賞を発送した場合）</h3>
      <dl className="mt-1 grid gap-2 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-xs text-muted">カードの仕入れ</dt>
          <dd className="font-bold">{yen(numbers.margin.cardCostYen)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">決済手数料</dt>
          <dd className="font-bold">{yen(numbers.margin.feesYen)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">送料</dt>
          <dd className="font-bold">{yen(numbers.margin.shippingYen)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">利益</dt>
          <dd className={`font-black ${numbers.margin.marginYen < 0 ? 'text-danger' : ''}`}>
            {yen(numbers.margin.marginYen)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">利益率</dt>
          <dd className="font-black">{pct(numbers.margin.marginRate)}</dd>
        </div>
      </dl>
      {numbers.margin.missingCost.length ? (
        <p className="mt-2 text-xs font-bold text-amber-900">
          仕入れ値が未入力の賞（0円として計算）: {numbers.margin.missingCost.join('、')}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The publish confirmation's figures (issue 28 item 4): the 還元率, stated when above 100 %, and the
 * projected margin; a negative one needs the box ticked (the server checks it and records it).
 */
export function PublishFigures({ numbers }: { numbers: Data['numbers'] }) {
  const over = numbers.returnRate !== null && numbers.returnRate > 1;
  const negative = numbers.margin.marginYen < 0;
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted">還元率</dt>
        <dd className={`font-bold ${over ? 'text-danger' : ''}`} data-testid="publish-return-rate">
          {pct(numbers.returnRate)}
        </dd>
        <dt className="text-muted">予想利益</dt>
        <dd className={`font-bold ${negative ? 'text-danger' : ''}`} data-testid="publish-margin">
          {yen(numbers.margin.marginYen)}（{pct(numbers.margin.marginRate)}）
        </dd>
      </dl>
      {over ? (
        <p className="rounded-lg bg-amber-50 p-3 text-amber-900">
          還元率が100%を超えています（{pct(numbers.returnRate)}
          ）。賞の価値の合計が売上より多いパックです。意図したとおりか確かめてください。
        </p>
      ) : null}
      {negative ? (
        <label className="flex items-start gap-2 rounded-lg bg-red-50 p-3 font-bold text-danger">
          <input type="checkbox" name="acknowledgeNegativeMargin" required className="mt-1 size-5 shrink-0" />
          <span>
            予想利益がマイナス（{yen(numbers.margin.marginYen)}）であることを確認しました。このまま公開します。
          </span>
        </label>
      ) : null}
    </div>
  );
}
