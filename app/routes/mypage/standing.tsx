// /mypage/standing: a signed-in member's restriction (a hold) with its reason category, their coins and
// prizes, and the appeal (decision 084). Members only (the sign-in prompt for a visitor).
import type { Route } from './+types/standing';
import { shopRequestContext } from '#server/context';
import { SettingsPage } from '~/components/SettingsPage';
import { StandingStatement } from '~/components/standing/StandingStatement';
import { standingPageAction, standingPageLoader, type StandingActionData } from '~/controllers/standing.server';

export const handle = { title: 'アカウントの利用制限と明細' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return standingPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return standingPageAction(context.get(shopRequestContext), request);
}

export default function Standing({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SettingsPage
      title="アカウントの利用制限と明細"
      lead="制限の理由の区分と、お持ちのコイン・獲得商品の明細です。制限が誤りだと思われる場合は、異議を申し立てられます。"
    >
      <StandingStatement statement={loaderData.statement} answer={actionData as StandingActionData | undefined} />
    </SettingsPage>
  );
}
