// /mylevel: the member's level and the way to the next one, this week's exp and place, and the next
// level-up rewards (decision 037).
import { redirect } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import { LevelCard, LevelRewardsTable } from '~/components/LevelProgress';
import { withPresents } from '~/controllers/level-rewards.server';
import { currentRank, getMemberLevel } from '#modules/progression';
import { boardPeriod, rankingBoard } from '#modules/ranking';

export const handle = { title: 'マイレベル' };

export async function loader({ context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  if (!shop.member) throw redirect('/auth/sign_in?redirect=%2Fmylevel');
  const { db } = shop.services;
  const now = new Date();
  const [level, rank, week] = await Promise.all([
    getMemberLevel(db, shop.member.id),
    currentRank(db, shop.member.id, now),
    rankingBoard(db, 'exp', boardPeriod('exp', 'current', now), shop.member.id),
  ]);
  const { rewards, ...standing } = level;
  // The rewards around the member's level: the last one reached and the next five.
  const upcoming = rewards.filter((r) => !r.reached).slice(0, 5);
  const lastReached = rewards.filter((r) => r.reached).slice(-1);
  return {
    level: standing,
    rewards: await withPresents(db, shop.member.id, [...lastReached, ...upcoming]),
    rankName: rank.name,
    weekExp: week.me?.score ?? 0,
    weekPlace: week.me?.place ?? null,
  };
}

export default function MyLevel({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="マイレベル" lead="オリパを引くと、使ったコイン1枚につき1経験値がたまります。" />
      <LevelCard level={loaderData.level} />
      <section aria-labelledby="exp-now" className="mb-4 grid grid-cols-2 gap-3">
        <h2 id="exp-now" className="sr-only">
          今週の経験値
        </h2>
        <div className="rounded-2xl bg-white p-4 shadow-sm">
          <p className="text-xs font-bold text-muted">今週の獲得（月曜〜）</p>
          <p className="text-xl font-black" data-testid="week-exp">
            {formatCoins(loaderData.weekExp)}
            <span className="ml-1 text-xs">EXP</span>
          </p>
        </div>
        <div className="rounded-2xl bg-white p-4 shadow-sm">
          <p className="text-xs font-bold text-muted">週間ランキング</p>
          <p className="text-xl font-black" data-testid="week-place">
            {loaderData.weekPlace ? `${formatCoins(loaderData.weekPlace)}位` : '—'}
          </p>
          <AppLink to="/ranking/weekly/exp" className="text-xs font-bold text-primary-ink underline">
            ランキングを見る
          </AppLink>
        </div>
      </section>
      <section aria-labelledby="rewards" className="mb-4 flex flex-col gap-2">
        <h2 id="rewards" className="text-base font-black">
          レベルアップ報酬
        </h2>
        <LevelRewardsTable rewards={loaderData.rewards} />
        <AppLink to="/mylevel/top" className="self-start text-sm font-bold text-primary-ink underline">
          報酬の一覧を見る
        </AppLink>
      </section>
      <section aria-labelledby="perks" className="rounded-2xl bg-white p-5 text-sm shadow-sm">
        <h2 id="perks" className="mb-1 text-base font-black">
          いま受けられる特典
        </h2>
        <p className="text-muted">
          あなたのランクは
          <b className="text-ink" data-testid="rank-name">
            {loaderData.rankName}
          </b>
          です。ランクに応じてコイン購入時にボーナスが付きます。
        </p>
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          <AppLink to="/myrank" className="font-bold text-primary-ink underline">
            マイランクを見る
          </AppLink>
          <AppLink to="/mylevel/top" className="font-bold text-primary-ink underline">
            特典の一覧
          </AppLink>
        </div>
      </section>
    </>
  );
}
