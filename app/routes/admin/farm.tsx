// /admin/farm (decision 044): the farm's pause switch (asks first), its rules, the seed table (edit in a
// sheet, add, stop or resume, delete a never-planted seed after asking) with `farm:write`, and the daily
// economy view (coins granted, members playing, streaks) with `farm:write` or `reports:read`. Audited.
import type { Route } from './+types/farm';
import { shopRequestContext } from '#server/context';
import { EconomySection } from '~/components/admin/farm/EconomySection';
import { PauseSection } from '~/components/admin/farm/PauseSection';
import { RulesSection } from '~/components/admin/farm/RulesSection';
import { SeedsSection } from '~/components/admin/farm/SeedsSection';
import { farmPageAction, farmPageLoader, type FarmActionData } from '~/controllers/admin-farm.server';

export const handle = { title: 'ファーム' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return farmPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return farmPageAction(context.get(shopRequestContext), request);
}

export default function FarmAdminPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as FarmActionData | undefined;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">ファーム</h1>
      <p className="mt-1 text-sm text-muted">
        会員が毎日遊べるミニゲーム（/app/farm）の設定です。時間と報酬はすべてサーバーが決めます。変更はすべて監査ログに記録されます。
      </p>
      {loaderData.canWrite ? (
        <>
          <PauseSection paused={loaderData.rules.paused} answer={answer} />
          <RulesSection rules={loaderData.rules} answer={answer} />
          <SeedsSection data={loaderData} answer={answer} />
        </>
      ) : (
        <p className="mt-6 rounded-2xl border border-line bg-white p-4 text-sm">
          現在の状態：{loaderData.rules.paused ? '一時停止中' : '稼働中'}
          。設定の変更には「ファームの設定・種・一時停止」の権限（farm:write）が必要です。
        </p>
      )}
      <EconomySection data={loaderData} />
    </div>
  );
}
