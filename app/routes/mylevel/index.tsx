// /mylevel: the member's experience (1 per coin drawn), this week's gain and place, and what comes later (levels).
import { redirect } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '~/context';
import { PageHeading } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import { getMemberProgress } from '#modules/progression';
import { jstPeriod, weeklyExpRanking } from '#modules/draw';

export const handle = { title: 'マイレベル' };

export async function loader({ context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  if (!shop.member) throw redirect('/auth/sign_in?redirect=%2Fmylevel');
  const { db } = shop.services;
  const [progress, week] = await Promise.all([
    getMemberProgress(db, shop.member.id),
    weeklyExpRanking(db, jstPeriod('week', new Date()), shop.member.id),
  ]);
  return {
    exp: progress.exp,
    rankName: progress.rank.name,
    weekExp: week.me?.score ?? 0,
    weekPlace: week.me?.place ?? null,
  };
}

export default function MyLevel({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="マイレベル" lead="オリパを引くと、使ったコイン1枚につき1経験値がたまります。" />
      <section aria-labelledby="exp-now" className="mb-4 grid grid-cols-2 gap-3">
        <h2 id="exp-now" className="sr-only">
          あなたの経験値
        </h2>
        <div className="col-span-2 rounded-2xl bg-white p-5 shadow-sm">
          <p className="text-xs font-bold text-muted">累計経験値</p>
          <p className="text-3xl font-black" data-testid="total-exp">
            {formatCoins(loaderData.exp)}
            <span className="ml-1 text-sm">EXP</span>
          </p>
        </div>
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
      <section
        aria-labelledby="later"
        className="mb-4 rounded-2xl border border-dashed border-line bg-white p-5 text-sm leading-relaxed"
      >
        <h2 id="later" className="mb-1 text-base font-black">
          レベルについて
        </h2>
        <p className="text-muted">
          レベルとレベルアップ報酬は、メールボックス（報酬の受け取り）と一緒に追加します。いまはまだレベルはなく、経験値だけがたまっています。
        </p>
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
