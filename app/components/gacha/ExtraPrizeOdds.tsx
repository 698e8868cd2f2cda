// Beside the price (issue 34 item 3): every extra prize with how it is won and its odds per lot, and, for a
// member of a pack with 個人キリ番賞, how many of their own lots are left to the next number.
import type { ExtraPrizeOdds as ExtraPrizeOddsRow } from '#modules/gacha';
import { formatCoins } from '~/lib/numbers';

export function ExtraPrizeOdds({
  extraOdds: extras,
  personalNumbers,
  myLots,
  closed,
}: {
  extraOdds: ExtraPrizeOddsRow[];
  /** The pack's 個人キリ番 (every personal tier's numbers, ascending). */
  personalNumbers: number[];
  /** The member's own lots of this pack, or null for a visitor (or a pack without 個人キリ番賞). */
  myLots: number | null;
  closed: boolean;
}) {
  if (extras.length === 0) return null;
  const next = myLots === null ? null : (personalNumbers.find((n) => n > myLots) ?? null);
  return (
    <section aria-labelledby="extra-odds-title" className="rounded-xl bg-canvas p-3 text-sm" data-testid="extra-odds">
      <h2 id="extra-odds-title" className="font-bold">
        特典賞（口とは別にプレゼント）
      </h2>
      <ul className="mt-1.5 grid gap-1">
        {extras.map((extra) => (
          <li
            key={extra.tierId}
            className="flex flex-wrap items-baseline justify-between gap-x-2 rounded-lg bg-white px-2 py-1 text-xs"
            data-testid="extra-odds-row"
          >
            <span>
              <b>{extra.label}</b>　{extra.condition}
            </span>
            <span className="font-bold">{extra.odds}</span>
          </li>
        ))}
      </ul>
      {personalNumbers.length > 0 && myLots !== null && !closed ? (
        <p className="mt-1.5 text-xs font-bold text-primary-ink" data-testid="personal-kiriban-meter">
          {next === null
            ? `このオリパを${formatCoins(myLots)}口引きました。個人キリ番賞はすべて達成済みです。`
            : `このオリパを${formatCoins(myLots)}口引きました。あと${formatCoins(next - myLots)}口で個人キリ番賞（${formatCoins(next)}口目）`}
        </p>
      ) : null}
    </section>
  );
}
