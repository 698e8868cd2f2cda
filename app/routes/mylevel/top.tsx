// /mylevel/top: the member's level, the whole level-up rewards table (which are reached), and the rank
// perks (decision 037).
import { redirect } from 'react-router';
import type { Route } from './+types/top';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { RankLadder } from '~/components/RankLadder';
import { LevelCard, LevelRewardsTable } from '~/components/LevelProgress';
import { getMemberLevel, RANKS } from '#modules/progression';
import { withPresents } from '~/controllers/level-rewards.server';

export const handle = { title: 'レベル特典' };

export async function loader({ context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  if (!shop.member) throw redirect('/auth/sign_in?redirect=%2Fmylevel%2Ftop');
  const { rewards, ...level } = await getMemberLevel(shop.services.db, shop.member.id);
  return {
    level,
    rewards: await withPresents(shop.services.db, shop.member.id, rewards),
    ranks: RANKS.map((r) => ({ rank: r.rank, name: r.name, threshold: r.threshold, bonusPercent: r.bonusPercent })),
  };
}

export default function MyLevelTop({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading
        title="レベル特典"
        lead="オリパを引くと、使ったコイン1枚につき1経験値。経験値がたまるとレベルが上がり、報酬がメールボックスに届きます。"
      />
      <LevelCard level={loaderData.level} />
      <section aria-labelledby="rewards" className="mb-4 flex flex-col gap-2">
        <h2 id="rewards" className="text-base font-black">
          レベルアップ報酬一覧
        </h2>
        <LevelRewardsTable rewards={loaderData.rewards} />
      </section>
      <section aria-labelledby="rank-perks" className="flex flex-col gap-3">
        <h2 id="rank-perks" className="text-base font-black">
          ランク特典（購入ボーナス）
        </h2>
        <RankLadder ranks={loaderData.ranks} />
        <AppLink to="/myrank" className="self-start text-sm font-bold text-primary-ink underline">
          あなたのランクと次のランクまで
        </AppLink>
      </section>
    </>
  );
}
