// /myrank: the member's rank (from last month's purchases) and the perks of each rank.
import { PageHeading } from '~/components/PageFrame';

export const handle = { title: 'マイランク' };

export const RANKS = [
  { name: 'レギュラー', threshold: 0, bonus: 0, className: 'from-slate-200 to-slate-100' },
  { name: 'ブロンズ', threshold: 10_000, bonus: 1, className: 'from-amber-700 to-amber-500 text-white' },
  { name: 'シルバー', threshold: 30_000, bonus: 2, className: 'from-slate-400 to-slate-200' },
  { name: 'ゴールド', threshold: 100_000, bonus: 3, className: 'from-yellow-500 to-amber-300' },
  { name: 'プラチナ', threshold: 300_000, bonus: 4, className: 'from-cyan-200 to-slate-100' },
  { name: 'ダイヤモンド', threshold: 1_000_000, bonus: 5, className: 'from-sky-400 to-fuchsia-300 text-white' },
] as const;

export default function MyRank() {
  return (
    <>
      <PageHeading title="マイランク" lead="前月（日本時間）の有償コイン購入額でランクが決まります。" />
      <ol className="flex flex-col gap-2">
        {RANKS.map((rank) => (
          <li key={rank.name} className={`flex items-center justify-between rounded-2xl bg-gradient-to-r px-4 py-3 shadow-sm ${rank.className}`}>
            <span className="font-black">{rank.name}</span>
            <span className="text-sm font-bold">
              {rank.threshold === 0 ? '条件なし' : `${rank.threshold.toLocaleString('ja-JP')}円以上`}・購入ボーナス {rank.bonus}%
            </span>
          </li>
        ))}
      </ol>
      <p className="mt-3 text-xs text-muted">あなたの今月の進み具合は、コインの販売開始後に表示されます。</p>
    </>
  );
}
