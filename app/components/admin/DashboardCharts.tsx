// The dashboard's charts: server-rendered SVG drawn with @visx/scale (no chart code runs in the
// browser beyond hydrating static markup), each with its figures as a table for screen readers and
// anyone who wants the numbers. Labels are Japanese; days are Japan-time days (YYYY-MM-DD).
import { scaleBand, scaleLinear } from '@visx/scale';
import { useId } from 'react';

export interface ChartPoint {
  /** The x label's source: a day (YYYY-MM-DD) or a name. */
  key: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 200;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 64 };

const numberJa = new Intl.NumberFormat('ja-JP');
const dayLabel = (day: string) => `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}`;
const dayLong = (day: string) => `${day.slice(0, 4)}年${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;

/**
 * Bars per Japan-time day, with a summary for assistive technology and the figures in a table.
 * @example <DailyBarChart title="売上（日別）" unit="円" points={[{ key: '2027-05-01', value: 12000 }]} />
 */
export function DailyBarChart({ title, unit, points }: { title: string; unit: string; points: ChartPoint[] }) {
  const id = useId();
  const max = Math.max(1, ...points.map((p) => p.value));
  const x = scaleBand<string>({
    domain: points.map((p) => p.key),
    range: [MARGIN.left, WIDTH - MARGIN.right],
    padding: 0.2,
  });
  const y = scaleLinear<number>({ domain: [0, max], range: [HEIGHT - MARGIN.bottom, MARGIN.top], nice: true });
  const ticks = y.ticks(4).filter((t) => Number.isInteger(t));
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const peak = points.reduce<ChartPoint | null>((best, p) => (!best || p.value > best.value ? p : best), null);
  const summary =
    points.length === 0
      ? 'データがありません。'
      : `${dayLong(points[0]!.key)}から${dayLong(points.at(-1)!.key)}までの合計 ${numberJa.format(total)}${unit}。` +
        (peak && peak.value > 0 ? `最大は${dayLong(peak.key)}の${numberJa.format(peak.value)}${unit}。` : '');
  const labelEvery = Math.max(1, Math.ceil(points.length / 10));
  return (
    <figure className="rounded-2xl border border-line bg-white p-4">
      <figcaption id={`${id}-title`} className="text-sm font-bold">
        {title}
      </figcaption>
      <p id={`${id}-desc`} className="mt-1 text-xs text-muted">
        {summary}
      </p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-2 h-auto w-full"
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(t)} y2={y(t)} stroke="var(--color-line)" />
            <text x={MARGIN.left - 6} y={y(t)} dy="0.32em" textAnchor="end" fontSize="12" fill="var(--color-muted)">
              {numberJa.format(t)}
            </text>
          </g>
        ))}
        {points.map((p, i) => {
          const left = x(p.key) ?? 0;
          const top = y(p.value);
          return (
            <g key={p.key}>
              <rect
                x={left}
                y={top}
                width={x.bandwidth()}
                height={Math.max(0, HEIGHT - MARGIN.bottom - top)}
                fill="var(--color-primary)"
              >
                <title>{`${dayLong(p.key)}: ${numberJa.format(p.value)}${unit}`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text
                  x={left + x.bandwidth() / 2}
                  y={HEIGHT - MARGIN.bottom + 16}
                  textAnchor="middle"
                  fontSize="12"
                  fill="var(--color-muted)"
                >
                  {dayLabel(p.key)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <FigureTable
        caption={title}
        head={['日付', `値（${unit}）`]}
        rows={points.map((p) => [dayLong(p.key), numberJa.format(p.value)])}
      />
    </figure>
  );
}

/**
 * Horizontal bars for named items (payment methods, packs), longest first as given, with a table.
 * @example <RankedBarChart title="パック別の販売率" unit="%" max={100} points={[{ key: '星のパック', value: 82.5 }]} />
 */
export function RankedBarChart({
  title,
  unit,
  points,
  max,
  notes,
}: {
  title: string;
  unit: string;
  points: ChartPoint[];
  /** The scale's end (100 for percentages); the largest value when omitted. */
  max?: number;
  /** A longer figure per row for the table (e.g. 「320 / 400口」). */
  notes?: string[];
}) {
  const id = useId();
  const rowHeight = 28;
  const labelWidth = 180;
  const height = Math.max(rowHeight, points.length * rowHeight);
  const x = scaleLinear<number>({
    domain: [0, max ?? Math.max(1, ...points.map((p) => p.value))],
    range: [labelWidth, WIDTH - 90],
  });
  const y = scaleBand<string>({ domain: points.map((p, i) => `${i}`), range: [0, height], padding: 0.25 });
  return (
    <figure className="rounded-2xl border border-line bg-white p-4">
      <figcaption id={`${id}-title`} className="text-sm font-bold">
        {title}
      </figcaption>
      {points.length === 0 ? (
        <p className="mt-2 text-sm text-muted">まだデータがありません。</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${height}`}
          className="mt-2 h-auto w-full"
          role="img"
          aria-labelledby={`${id}-title`}
        >
          {points.map((p, i) => {
            const top = y(`${i}`) ?? 0;
            return (
              <g key={`${i}-${p.key}`}>
                <text x={labelWidth - 8} y={top + y.bandwidth() / 2} dy="0.32em" textAnchor="end" fontSize="12">
                  {p.key.length > 14 ? `${p.key.slice(0, 13)}…` : p.key}
                </text>
                <rect
                  x={labelWidth}
                  y={top}
                  width={Math.max(0, x(p.value) - labelWidth)}
                  height={y.bandwidth()}
                  fill="var(--color-primary)"
                >
                  <title>{`${p.key}: ${numberJa.format(p.value)}${unit}`}</title>
                </rect>
                <text x={x(p.value) + 6} y={top + y.bandwidth() / 2} dy="0.32em" fontSize="12">
                  {`${numberJa.format(p.value)}${unit}`}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      <FigureTable
        caption={title}
        head={['名前', `値（${unit}）`, ...(notes ? ['内訳'] : [])]}
        rows={points.map((p, i) => [p.key, numberJa.format(p.value), ...(notes ? [notes[i] ?? ''] : [])])}
      />
    </figure>
  );
}

/** The chart's figures as a table, folded under 「表で見る」. */
function FigureTable({ caption, head, rows }: { caption: string; head: string[]; rows: string[][] }) {
  if (rows.length === 0) return null;
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-muted">表で見る</summary>
      <table className="mt-2 w-full text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="border-b border-line py-1 pr-2 font-bold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className="py-1 pr-2 font-normal">
                    {cell}
                  </th>
                ) : (
                  <td key={j} className="py-1 pr-2 tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
