// The rank ladder (/myrank, /mylevel/top): each rank's threshold and purchase bonus, in metallic colours.
import { formatCoins } from '~/lib/numbers';
import type { Rank } from '#modules/progression';

/** Metallic colours per rank number (0 = レギュラー … 5 = ダイヤモンド); text stays dark or white for contrast. */
export const RANK_COLOURS: Record<number, string> = {
  0: 'from-slate-200 to-slate-100 text-ink',
  1: 'from-amber-800 to-amber-700 text-white',
  2: 'from-slate-400 to-slate-200 text-ink',
  3: 'from-yellow-500 to-amber-300 text-ink',
  4: 'from-cyan-200 to-slate-100 text-ink',
  5: 'from-sky-700 to-fuchsia-700 text-white',
};

/** What the ladder shows of a rank (modules/progression's RANKS). */
export type LadderRank = Pick<Rank, 'rank' | 'name' | 'threshold' | 'bonusPercent'> & {
  /** Free coins mailed when a month's rank rises to this one (decision 037); absent: not shown. */
  rankUpCoins?: number;
};

/** The ladder, best rank on top, marking this month's rank and the one next month would have. */
export function RankLadder({
  ranks,
  current,
  nextMonth,
}: {
  ranks: readonly LadderRank[];
  current?: number;
  nextMonth?: number;
}) {
  return (
    <ol className="flex flex-col gap-2" aria-label="ランク一覧">
      {[...ranks].reverse().map((rank) => {
        const marks = [
          rank.rank === current ? '今月のランク' : null,
          rank.rank === nextMonth ? '来月の見込み' : null,
        ].filter(Boolean);
        return (
          <li
            key={rank.rank}
            data-testid={`rank-${rank.rank}`}
            className={`flex items-center justify-between gap-3 rounded-2xl bg-gradient-to-r px-4 py-3 shadow-sm ${RANK_COLOURS[rank.rank] ?? RANK_COLOURS[0]} ${rank.rank === current ? 'ring-4 ring-primary' : ''}`}
          >
            <span className="flex flex-col">
              <span className="font-black">{rank.name}</span>
              {marks.length > 0 && <span className="text-xs font-bold">{marks.join('・')}</span>}
            </span>
            <span className="text-right text-xs font-bold leading-relaxed sm:text-sm">
              {rank.threshold === 0 ? '条件なし' : `前月の購入 ${formatCoins(rank.threshold)}コイン以上`}
              <br />
              {rank.bonusPercent > 0 ? `購入ボーナス +${rank.bonusPercent}%` : '購入ボーナスなし'}
              {rank.rankUpCoins ? (
                <>
                  <br />
                  ランクアップ報酬 {formatCoins(rank.rankUpCoins)}コイン
                </>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
