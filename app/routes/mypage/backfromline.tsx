// /mypage/backfromline and /mypage/backfromlinecampaign: link LINE from the website (LINE Login
// through better-auth) and come back here; the campaign page (guard ng-line-internal: LINE's in-app
// browser is sent to an external one) rewards the link once. Members only.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/backfromline';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert } from '~/components/FormField';
import { formatCoins } from '~/lib/numbers';
import {
  lineReturnAction,
  lineReturnLoader,
  type LineReturnData,
  type LineReturnVariant,
} from '~/controllers/line-return.server';

export const handle = { title: 'LINE連携' };

const variantOf = (url: string): LineReturnVariant =>
  new URL(url).pathname.endsWith('backfromlinecampaign') ? 'campaign' : 'plain';

export async function loader({ request, context }: Route.LoaderArgs) {
  return lineReturnLoader(context.get(shopRequestContext), request, variantOf(request.url));
}

export async function action({ request, context }: Route.ActionArgs) {
  return lineReturnAction(context.get(shopRequestContext), request, variantOf(request.url));
}

export default function BackFromLine({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const page = (actionData as LineReturnData | undefined) ?? (loaderData as LineReturnData);
  const card = 'flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm';
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading
        title={page.variant === 'campaign' ? 'LINE連携キャンペーン' : 'LINE連携'}
        lead="LINEと連携すると、LINEでもログインでき、お知らせをLINEで受け取れます。"
      />
      {page.state === 'linked' ? (
        <section role="status" className={card}>
          <p className="text-base font-bold">LINEアカウントを連携しました</p>
          {page.rewarded === 'now' ? (
            <p className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
              キャンペーン特典として {formatCoins(page.reward)} コイン（無償）を付与しました。
            </p>
          ) : page.rewarded === 'before' ? (
            <p className="text-sm text-muted">キャンペーン特典は、このLINEアカウントですでに受け取り済みです。</p>
          ) : null}
          <ButtonLink to="/mypage" fullWidth>
            マイページへ
          </ButtonLink>
        </section>
      ) : page.state === 'failed' ? (
        <section className={card}>
          <FormAlert message={page.message} />
          <Form method="post">
            <Button type="submit" fullWidth loading={navigation.state !== 'idle'}>
              もう一度LINEと連携する
            </Button>
          </Form>
          <ButtonLink to="/mypage" variant="secondary" fullWidth>
            マイページへ
          </ButtonLink>
        </section>
      ) : !page.available ? (
        <section className={card}>
          <p className="text-sm">LINE連携は現在ご利用いただけません。</p>
          <ButtonLink to="/mypage" fullWidth>
            マイページへ
          </ButtonLink>
        </section>
      ) : (
        <section className={card}>
          {page.reward > 0 ? (
            <p className="rounded-xl bg-primary-soft px-4 py-3 text-sm font-bold">
              いまLINEと連携すると {formatCoins(page.reward)} コイン（無償）をプレゼント（お一人様1回）
            </p>
          ) : null}
          {page.linked ? (
            <p className="text-sm">LINEアカウントは連携済みです。</p>
          ) : (
            <p className="text-sm">下のボタンからLINEのログイン画面に進み、連携を許可してください。</p>
          )}
          <Form method="post">
            <Button type="submit" size="lg" fullWidth loading={navigation.state !== 'idle'}>
              {page.linked ? '連携を確認する' : 'LINEと連携する'}
            </Button>
          </Form>
        </section>
      )}
    </div>
  );
}
