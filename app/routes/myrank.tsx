// /myrank: the member's rank this month (the recorded one, from last month's purchases), its perks (purchase
// bonus, rank-up reward, rank-only packs), this month's purchases towards next month's rank, and every
// rank's threshold and perks (decision 037).
import { redirect } from 'react-router';
import type { Route } from './+types/myrank';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { RankLadder, RANK_COLOURS } from '~/components/RankLadder';
import { formatCoins } from '~/lib/numbers';
import { toShopZone } from '#modules/kernel/dates/zone';
import { getMemberProgress, rankUpRewardsTable, RANKS } from '#modules/progression';
import { rankOnlyPacks } from '#modules/gacha';
import { rankRulesOf } from '#server/context';

export const handle = { title: 'マイランク' };

export async function loader({ context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  // The members' guard answers first; this only keeps a direct call honest.
  if (!shop.member) throw redirect('/auth/sign_in?redirect=%2Fmyrank');
  const { db, config } = shop.services;
  const [progress, packs] = await Promise.all([getMemberProgress(db, shop.member.id), rankOnlyPacks(db)]);
  const rewards = rankUpRewardsTable(rankRulesOf(config));
  return {
    ranks: RANKS.map((r) => ({
      rank: r.rank,
      name: r.name,
      threshold: r.threshold,
      bonusPercent: r.bonusPercent,
      rankUpCoins: rewards[r.rank]?.coins ?? 0,
    })),
    rankOnlyPacks: packs.map((p) => ({
      to: `/gacha/${p.genreId}/${p.id}`,
      title: p.title,
      minRankName: RANKS[p.minRank]?.name ?? '',
      open: p.minRank <= progress.rank.rank,
    })),
    rank: progress.rank,
    boughtThisMonth: progress.boughtThisMonth,
    nextMonthRank: progress.nextMonthRank,
    nextTarget: progress.nextTarget,
    // Formatted on the server in Japan time, so the browser's zone cannot change the day.
    nextMonthStarts: `${(toShopZone(progress.monthEndsAt)?.getMonth() ?? 0) + 1}月1日`,
  };
}

export default function MyRank({ loaderData }: Route.ComponentProps) {
  const { rank, nextMonthRank, nextTarget, boughtThisMonth } = loaderData;
  const lower = nextTarget ? (loaderData.ranks.find((r) => r.rank === nextTarget.rank.rank - 1)?.threshold ?? 0) : 0;
  const progress = nextTarget
    ? Math.min(1, (boughtThisMonth - lower) / Math.max(1, nextTarget.rank.threshold - lower))
    : 1;
  return (
    <>
      <PageHeading
        title="マイランク"
        lead="ランクは毎月1日（日本時間）に、前月に購入した有償コインの枚数で決まります。"
      />
      <section
        aria-labelledby="rank-now"
        className={`mb-4 rounded-2xl bg-gradient-to-r p-5 shadow-sm ${RANK_COLOURS[rank.rank] ?? RANK_COLOURS[0]}`}
      >
        <h2 id="rank-now" className="text-xs font-bold">
          今月のランク
        </h2>
        <p className="text-3xl font-black" data-testid="current-rank">
          {rank.name}
        </p>
        <p className="mt-1 text-sm font-bold">
          {rank.bonusPercent > 0
            ? `コイン購入のたびに有償コインの${rank.bonusPercent}%を無償コインでお付けします`
            : '購入ボーナスはブロンズランクからです'}
        </p>
      </section>
      <section aria-labelledby="rank-perks" className="mb-4 flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm">
        <h2 id="rank-perks" className="text-base font-black">
          {rank.name}の特典
        </h2>
        <ul className="list-disc pl-5 text-sm leading-relaxed" data-testid="rank-perk-list">
          <li>
            {rank.bonusPercent > 0
              ? `コイン購入ボーナス：有償コインの${rank.bonusPercent}%を無償コインで追加`
              : 'コイン購入ボーナス：ブロンズランクから'}
          </li>
          <li>ランクが上がった月は、ランクアップ報酬（無償コイン）がメールボックスに届きます</li>
          <li>
            ランク限定オリパ：
            {loaderData.rankOnlyPacks.length === 0 ? 'いま販売中のものはありません' : 'ランクに応じて引けます'}
          </li>
        </ul>
        {loaderData.rankOnlyPacks.length > 0 ? (
          <ul className="flex flex-col gap-1 text-sm" aria-label="ランク限定オリパ">
            {loaderData.rankOnlyPacks.map((pack) => (
              <li key={pack.to} className="flex items-center justify-between gap-2">
                <AppLink to={pack.to} className="truncate font-bold text-primary-ink underline">
                  {pack.title}
                </AppLink>
                <span className="shrink-0 text-xs font-bold">
                  {pack.minRankName}以上{pack.open ? '（引けます）' : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section aria-labelledby="rank-next" className="mb-4 flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm">
        <h2 id="rank-next" className="text-base font-black">
          次のランクまで
        </h2>
        <p className="text-sm">
          今月の有償コイン購入{' '}
          <b className="text-lg" data-testid="bought-this-month">
            {formatCoins(boughtThisMonth)}
          </b>
          コイン
          <span className="text-muted">
            （{loaderData.nextMonthStarts}からのランク：
            <b className="text-ink" data-testid="next-month-rank">
              {nextMonthRank.name}
            </b>
            ）
          </span>
        </p>
        {nextTarget ? (
          <>
            <div
              className="h-2.5 overflow-hidden rounded-full bg-canvas"
              role="progressbar"
              aria-label={`${nextTarget.rank.name}までの進み具合`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
            >
              <div className="h-full rounded-full bg-primary" style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
            <p className="text-sm" data-testid="next-target">
              あと <b className="text-lg text-primary-ink">{formatCoins(nextTarget.missing)}</b>コインの購入で、
              {loaderData.nextMonthStarts}から<b>{nextTarget.rank.name}</b>（購入ボーナス +
              {nextTarget.rank.bonusPercent}%）
            </p>
          </>
        ) : (
          <p className="text-sm font-bold" data-testid="next-target">
            最高ランクの条件を満たしています。{loaderData.nextMonthStarts}からもダイヤモンドです。
          </p>
        )}
        <p className="text-xs text-muted">
          数えるのは購入した有償コインだけです（ボーナスやカード交換の無償コインは数えません）。
        </p>
        <AppLink to="/shop" className="self-start text-sm font-bold text-primary-ink underline">
          コインを購入する
        </AppLink>
      </section>
      <section aria-labelledby="ladder" className="flex flex-col gap-3">
        <h2 id="ladder" className="text-base font-black">
          ランクと特典
        </h2>
        <RankLadder ranks={loaderData.ranks} current={rank.rank} nextMonth={nextMonthRank.rank} />
        <p className="text-xs text-muted">
          経験値とレベルは
          <AppLink to="/mylevel" className="font-bold text-primary-ink underline">
            マイレベル
          </AppLink>
          で確認できます。
        </p>
      </section>
    </>
  );
}
