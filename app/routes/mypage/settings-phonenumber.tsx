// /mypage/settings/phonenumber: the member's phone number, added or changed with a 6-digit SMS code
// (valid 10 minutes, 5 tries, 60 s between sends), or removed when another sign-in method remains.
// Shipping and invitation rewards need a verified number (docs/product.md).
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/settings-phonenumber';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { FeaturePage } from '~/components/FeaturePage';
import { Button } from '~/components/Button';
import { PhoneCodeSteps, type PhoneFormState } from '~/components/PhoneCodeSteps';
import { useRootData } from '~/lib/root-data';
import { phoneSettingsAction, phoneSettingsLoader } from '~/controllers/phone-number.server';

export const handle = { title: '電話番号認証' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return phoneSettingsLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return phoneSettingsAction(context.get(shopRequestContext), request);
}

export default function SettingsPhoneNumber({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  const navigation = useNavigation();
  if (!root?.member) return <FeaturePage membersOnly title="電話番号認証" emptyTitle="" />;
  const state = (actionData as { phone?: PhoneFormState } | undefined)?.phone;
  const { current, canRemove, notice } = loaderData;
  const removing = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'phone-remove';
  return (
    <>
      <PageHeading
        title="電話番号認証"
        lead="SMSで届く認証コードで携帯電話番号を確認します。発送申請や友達招待の特典には認証が必要です。"
      />
      <div className="flex flex-col gap-4">
        {notice && !state ? (
          <p role="status" className="rounded-xl bg-primary-soft px-4 py-3 text-sm font-bold">
            {notice}
          </p>
        ) : null}
        <section aria-labelledby="current-phone" className="rounded-2xl bg-white p-5 shadow-sm">
          <h2 id="current-phone" className="text-sm font-bold text-muted">
            登録中の電話番号
          </h2>
          {current ? (
            <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
              <p className="text-lg font-black tabular-nums" data-testid="current-phone">
                {current.masked}
                <span className="ml-2 rounded-full bg-primary-soft px-2 py-0.5 align-middle text-xs font-bold">
                  {current.verified ? '認証済み' : '未認証'}
                </span>
              </p>
              {canRemove ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="phone-remove" />
                  <Button type="submit" variant="plain" loading={removing}>
                    削除する
                  </Button>
                </Form>
              ) : null}
            </div>
          ) : (
            <p className="mt-2 text-sm">登録されていません。</p>
          )}
        </section>
        <section aria-labelledby="new-phone" className="rounded-2xl bg-white p-5 shadow-sm">
          <h2 id="new-phone" className="mb-4 text-base font-bold">
            {current ? '電話番号を変更する' : '電話番号を登録する'}
          </h2>
          <PhoneCodeSteps state={state} submitLabel="認証する" restartHref="/mypage/settings/phonenumber" />
        </section>
      </div>
    </>
  );
}
