// The member's level with the bar to the next one (numbers beside it), and the level-up rewards table:
// shared by /mylevel and /mylevel/top (decision 037).
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';

export interface LevelProgressData {
  exp: number;
  level: number;
  levelExp: number;
  next: { level: number; expRequired: number } | null;
}

export function LevelCard({ level }: { level: LevelProgressData }) {
  const { next } = level;
  const span = next ? next.expRequired - level.levelExp : 1;
  const done = next ? level.exp - level.levelExp : 1;
  const percent = Math.max(0, Math.min(100, Math.floor((done / Math.max(1, span)) * 100)));
  return (
    <section aria-labelledby="level-now" className="mb-4 rounded-2xl bg-white p-5 shadow-sm">
      <h2 id="level-now" className="text-xs font-bold text-muted">
        あなたのレベル
      </h2>
      <p className="text-4xl font-black" data-testid="level">
        Lv.{formatCoins(level.level)}
      </p>
      <p className="mt-1 text-sm">
        累計経験値 <b data-testid="total-exp">{formatCoins(level.exp)}</b> EXP
      </p>
      {next ? (
        <>
          <div
            role="progressbar"
            aria-label={`レベル${next.level}までの進み具合`}
            aria-valuemin={0}
            aria-valuemax={span}
            aria-valuenow={done}
            aria-valuetext={`${formatCoins(done)} / ${formatCoins(span)} EXP`}
            className="mt-3 h-3 overflow-hidden rounded-full bg-line"
          >
            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 flex justify-between text-xs font-bold" data-testid="level-progress">
            <span>
              {formatCoins(done)} / {formatCoins(span)} EXP
            </span>
            <span>
              Lv.{formatCoins(next.level)}まであと{formatCoins(next.expRequired - level.exp)} EXP
            </span>
          </p>
        </>
      ) : (
        <p className="mt-2 text-sm font-bold" data-testid="level-progress">
          最高レベルに到達しています
        </p>
      )}
    </section>
  );
}

export interface LevelRewardRow {
  level: number;
  expRequired: number;
  coins: number;
  reached: boolean;
  /** The reached level's present in the mailbox; null before the level, or without coins. */
  present?: { mailId: number; state: 'claimed' | 'waiting' | 'expired' } | null;
}

function RewardState({ reward }: { reward: LevelRewardRow }) {
  if (!reward.reached) return <>未達成</>;
  if (reward.present?.state === 'waiting')
    return (
      <AppLink to={`/myinbox/mail/${reward.present.mailId}`} className="text-primary-ink underline">
        受け取る
      </AppLink>
    );
  if (reward.present?.state === 'claimed') return <>受取済み</>;
  if (reward.present?.state === 'expired') return <span className="text-muted">期限切れ</span>;
  return <>達成</>;
}

/** The rewards table: the next few levels first in view, reached ones with their present: 受け取る (the mail), 受取済み or 期限切れ. */
export function LevelRewardsTable({ rewards }: { rewards: LevelRewardRow[] }) {
  if (rewards.length === 0)
    return <p className="rounded-2xl bg-white p-4 text-sm shadow-sm">現在、レベルアップ報酬はありません。</p>;
  return (
    <div className="overflow-hidden rounded-2xl bg-white shadow-sm">
      <table className="w-full text-sm" data-testid="level-rewards">
        <caption className="px-4 pt-3 text-left text-xs text-muted">
          報酬はレベルアップ時にメールボックスへ届きます。
          <AppLink to="/myinbox/idvs" className="font-bold text-primary-ink underline">
            メールボックスで受け取る
          </AppLink>
        </caption>
        <thead>
          <tr className="border-b border-line text-left text-xs text-muted">
            <th scope="col" className="px-4 py-2">
              レベル
            </th>
            <th scope="col" className="px-2 py-2 text-right">
              必要経験値
            </th>
            <th scope="col" className="px-2 py-2 text-right">
              報酬
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              状態
            </th>
          </tr>
        </thead>
        <tbody>
          {rewards.map((r) => (
            <tr key={r.level} className={`border-b border-line last:border-0 ${r.reached ? 'bg-primary-soft/40' : ''}`}>
              <th scope="row" className="px-4 py-2 text-left font-black">
                Lv.{formatCoins(r.level)}
              </th>
              <td className="px-2 py-2 text-right">{formatCoins(r.expRequired)}</td>
              <td className="px-2 py-2 text-right font-bold">{r.coins > 0 ? `${formatCoins(r.coins)}コイン` : '—'}</td>
              <td className="px-4 py-2 text-right text-xs font-bold">
                <RewardState reward={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
