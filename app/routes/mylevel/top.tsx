// /mylevel/top: the perks that exist today (rank purchase bonus) and, plainly, what comes later (level rewards).
import type { Route } from './+types/top';
import { PageHeading } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { RankLadder } from '~/components/RankLadder';
import { RANKS } from '#modules/progression';

export const handle = { title: 'レベル特典' };

export function loader() {
  return {
    ranks: RANKS.map((r) => ({ rank: r.rank, name: r.name, threshold: r.threshold, bonusPercent: r.bonusPercent })),
  };
}

export default function MyLevelTop({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="レベル特典" lead="いま受けられる特典と、これから加わる特典です。" />
      <section
        aria-labelledby="later"
        className="mb-4 rounded-2xl border border-dashed border-line bg-white p-5 text-sm leading-relaxed"
      >
        <h2 id="later" className="mb-1 text-base font-black">
          レベルアップ報酬
        </h2>
        <p className="text-muted">
          レベルとレベルアップ報酬は、メールボックス（報酬の受け取り）と一緒に追加します。それまでは、オリパを引いてたまる経験値を
          <AppLink to="/mylevel" className="font-bold text-primary-ink underline">
            マイレベル
          </AppLink>
          で確認できます。
        </p>
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
