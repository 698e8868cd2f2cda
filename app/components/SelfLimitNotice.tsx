// The calm reminder of a member's own limits (docs/decisions/035): at 80 % of a monthly limit it says how
// much is used, and during a self-exclusion it says until when purchases and draws are stopped. Shown on
// /shop (purchase), the pack page (draw) and /mypage (both); nothing when there is nothing to say.
import { AppLink } from './AppLink';

export interface SelfLimitSummaryView {
  purchase: { limit: number; used: number; remaining: number; reminder: boolean } | null;
  draw: { limit: number; used: number; remaining: number; reminder: boolean } | null;
  excludedLastDay: string | null;
}

const yen = (v: number) => `¥${v.toLocaleString('ja-JP')}`;
const coins = (v: number) => `${v.toLocaleString('ja-JP')}コイン`;

/** 2026-12-24 → 2026年12月24日 */
export const jstDayLabel = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return `${y}年${m}月${d}日`;
};

/**
 * @example <SelfLimitNotice summary={loaderData.selfLimits} show={['purchase']} />
 */
export function SelfLimitNotice({
  summary,
  show,
}: {
  summary: SelfLimitSummaryView | null | undefined;
  show: readonly ('purchase' | 'draw')[];
}) {
  if (!summary) return null;
  const lines: string[] = [];
  if (show.includes('purchase') && summary.purchase?.reminder) {
    const p = summary.purchase;
    lines.push(
      p.used >= p.limit
        ? `今月のご購入額がご自身で設定した上限に達しました（${yen(p.used)} / ${yen(p.limit)}）。`
        : `今月のご購入額が、ご自身で設定した上限の80%を超えました（${yen(p.used)} / ${yen(p.limit)}）。`,
    );
  }
  if (show.includes('draw') && summary.draw?.reminder) {
    const d = summary.draw;
    lines.push(
      d.used >= d.limit
        ? `今月のガチャ消費がご自身で設定した上限に達しました（${coins(d.used)} / ${coins(d.limit)}）。`
        : `今月のガチャ消費が、ご自身で設定した上限の80%を超えました（${coins(d.used)} / ${coins(d.limit)}）。`,
    );
  }
  if (!summary.excludedLastDay && lines.length === 0) return null;
  return (
    <section
      aria-label="利用上限のお知らせ"
      className="flex flex-col gap-1 rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950"
      data-testid="self-limit-notice"
    >
      {summary.excludedLastDay && (
        <p className="font-bold" data-testid="self-limit-excluded">
          {`自己除外期間中です（${jstDayLabel(summary.excludedLastDay)}まで）。コインの購入とガチャはできません。獲得商品の発送・交換はご利用いただけます。`}
        </p>
      )}
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <AppLink to="/mypage/settings/limits" className="self-start font-bold underline underline-offset-2">
        利用上限を確認する
      </AppLink>
    </section>
  );
}
