// /mypage/settings/delete: 退会. Says what happens (sessions end; personal data erased; coins and
// undecided or kept prizes forfeited; the ledger, orders and draws kept anonymised for the legal
// retention), then the member types 「退会する」, re-authenticates and presses the red button.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/settings-delete';
import { shopRequestContext } from '#server/context';
import { FeaturePage } from '~/components/FeaturePage';
import { PageHeading } from '~/components/PageFrame';
import { Button } from '~/components/Button';
import { TextField, FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import {
  deletionPageAction,
  deletionPageLoader,
  type DeletionActionData,
  type DeletionPageData,
} from '~/controllers/account-deletion.server';

export const handle = { title: '退会' };

export async function loader({ context }: Route.LoaderArgs) {
  return deletionPageLoader(context.get(shopRequestContext));
}

export async function action({ request, context }: Route.ActionArgs) {
  return deletionPageAction(context.get(shopRequestContext), request);
}

export default function SettingsDelete({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData as DeletionPageData;
  const result = actionData as DeletionActionData | undefined;
  const navigation = useNavigation();
  if (!page.signedIn) return <FeaturePage membersOnly title="退会" emptyTitle="ログインが必要です" />;
  const forfeitedPrizes = page.prizes.pending + page.prizes.kept;
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4">
      <PageHeading title="退会" />
      <section className="flex flex-col gap-3 rounded-2xl bg-white p-5 text-sm shadow-sm" aria-labelledby="what">
        <h2 id="what" className="text-base font-black">
          退会するとどうなりますか
        </h2>
        <ul className="flex list-disc flex-col gap-2 pl-5">
          <li>すべての端末でログアウトし、このアカウントには二度とログインできません。</li>
          <li>
            ニックネーム・メールアドレス・電話番号・生年月日・住所録・連携アカウント（LINEなど）・パスワード・二段階認証の設定は消去または匿名化されます（発送手続き中のカードのお届け先は、発送のために残ります）。ランキングや当選履歴には「退会済み会員」と表示されます。
          </li>
          <li>
            <strong className="text-red-700">
              保有コインはすべて失効します（有償コイン {formatCoins(page.coins.paid)}・無償コイン{' '}
              {formatCoins(page.coins.free)}、合計 {formatCoins(page.coins.total)}）。
            </strong>
            {page.closureRefund ? (
              <span
                className="mt-1 block rounded-xl bg-amber-50 p-2 font-bold text-amber-950"
                data-testid="closure-refund"
              >
                {page.closureRefund.applied
                  ? '閉店に伴う払戻しをお申し込み済みです。お振込みが済むまで退会できません。'
                  : `閉店に伴い、有償コイン ${formatCoins(page.coins.paid)}枚は ${page.closureRefund.deadlineText} まで払戻しを申し込めます。退会すると受け取れなくなります。`}{' '}
                <AppLink to="/mypage/refund" className="underline">
                  払戻しのお申し込み
                </AppLink>
              </span>
            ) : (
              '払い戻しはできません。'
            )}
          </li>
          <li>
            <strong className="text-red-700">未選択・保管中のカード（{forfeitedPrizes}枚）の権利も失われます。</strong>
            {page.prizes.shipping > 0
              ? `発送手続き中のカードが${page.prizes.shipping}枚あります。発送の完了を待ってからの退会をおすすめします。`
              : null}
          </li>
          <li>
            コインの取引記録・ご注文・ガチャの抽選記録は、資金決済法および特定商取引法・税法上の保存義務（帳簿は7年間）のため、お名前やメールアドレスと切り離した形で保存されます。
          </li>
          <li>同じメールアドレスで、あらためて新規登録することはできます（コインや履歴は引き継がれません）。</li>
        </ul>
      </section>

      <Form
        method="post"
        className="flex flex-col gap-4 rounded-2xl border-2 border-red-200 bg-white p-5 shadow-sm"
        noValidate
      >
        <h2 className="text-base font-black text-red-700">退会の確認</h2>
        <FormAlert message={result?.message} />
        <TextField
          name="confirmation"
          label={`確認のため「${page.phrase}」と入力してください`}
          autoComplete="off"
          required
        />
        {page.hasPassword ? (
          <TextField name="password" type="password" label="パスワード" autoComplete="current-password" required />
        ) : (
          <p className="text-sm text-muted">
            パスワードを設定していないアカウントは、ログインから{page.reauthMinutes}
            分以内に限り退会できます。時間が過ぎた場合は、いったんログアウトしてログインし直してください。
          </p>
        )}
        <Button type="submit" variant="danger" size="lg" fullWidth loading={navigation.state !== 'idle'}>
          退会する
        </Button>
      </Form>
      <AppLink to="/mypage" className="text-center text-sm text-muted underline underline-offset-2">
        退会せずにマイページに戻る
      </AppLink>
    </div>
  );
}
