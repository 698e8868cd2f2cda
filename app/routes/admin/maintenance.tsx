// /admin/maintenance (`shop:write`): maintenance mode. Switching on asks first (what members will be
// shown, what they cannot do), then takes effect on this instance at once and on every other within
// MAINTENANCE_CACHE_SECONDS; the draw and the checkout refuse exactly (docs/decisions/025). Audited.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/maintenance';
import { shopRequestContext } from '#server/context';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { Button } from '~/components/Button';
import { TextField } from '~/components/FormField';
import {
  maintenancePageAction,
  maintenancePageLoader,
  type MaintenanceActionData,
} from '~/controllers/admin-maintenance.server';

export const handle = { title: 'メンテナンス' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return maintenancePageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return maintenancePageAction(context.get(shopRequestContext), request);
}

/** What members cannot do meanwhile, and what keeps working (docs/operators.md, "Maintenance mode"). */
const REFUSED = [
  'ガチャを引く（ページ・API）',
  'コインの購入（購入手続きの開始）',
  '獲得商品のコイン交換・保管',
  '発送のお申し込み・キャンセル、住所の登録・変更',
  'プロフィール・メールアドレス・電話番号などの変更',
];
const KEPT = [
  '閲覧（トップ・ガチャ・ランキング・マイページ）とログイン',
  '決済の完了（決済会社からの通知と戻りページ）：支払い済みのコインは付与されます',
  '管理画面とコマンドライン、定期処理',
];

/** The shop's state now: in maintenance with its notice and planned end, or open; and who switched it last. */
function MaintenanceState({ state }: { state: Route.ComponentProps['loaderData']['state'] }) {
  return (
    <section
      aria-labelledby="maintenance-now"
      className={`mt-6 rounded-2xl border p-5 ${state.on ? 'border-amber-400 bg-amber-50' : 'border-line bg-white'}`}
    >
      <h2 id="maintenance-now" className="text-lg font-bold">
        現在の状態：{state.on ? 'メンテナンス中' : '通常営業'}
      </h2>
      {state.on ? (
        <dl className="mt-2 grid gap-1 text-sm">
          <div>
            <dt className="inline font-bold">お知らせ文：</dt>
            <dd className="inline">{state.message}</dd>
          </div>
          <div>
            <dt className="inline font-bold">終了予定：</dt>
            <dd className="inline">{state.endsAtText ? `${state.endsAtText}（日本時間）` : '未定'}</dd>
          </div>
        </dl>
      ) : null}
      {state.changedBy ? (
        <p className="mt-2 text-xs text-muted">
          最後の切り替え：{state.changedAtText}（日本時間）・{state.changedBy}
        </p>
      ) : null}
    </section>
  );
}

export default function MaintenancePage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as MaintenanceActionData | undefined;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const { state, defaultMessage, messageMaxLength } = loaderData;
  const review = answer?.review;
  const typed = review?.fields ?? answer?.typed;
  return (
    <div className="max-w-3xl">
      <h1 className="text-2xl font-black">メンテナンス</h1>
      <p className="mt-1 text-sm text-muted">
        メンテナンス中は、会員のページの上部にお知らせが表示され、次の操作を受け付けません（閲覧はできます）。管理画面はいつもどおり使えます。
      </p>

      <MaintenanceState state={state} />

      <ActionAnswer answer={answer} className="mt-4" />

      {state.on ? (
        <Form method="post" className="mt-6">
          <input type="hidden" name="intent" value="off" />
          <Button type="submit" loading={busy('off')}>
            メンテナンスを終了する
          </Button>
        </Form>
      ) : review ? (
        <section
          aria-labelledby="maintenance-confirm"
          className="mt-6 rounded-2xl border-2 border-red-600 bg-white p-5"
        >
          <h2 id="maintenance-confirm" className="text-lg font-bold">
            メンテナンスを開始しますか？
          </h2>
          <p className="mt-2 text-sm">会員のページに次のお知らせを表示します。</p>
          <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm">
            {review.message}
            {review.endsAtText ? ` 終了予定：${review.endsAtText}（日本時間）` : ''}
          </p>
          <p className="mt-3 text-sm font-bold">開始すると、すべての会員が次の操作をできなくなります。</p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {REFUSED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="on" />
              <input type="hidden" name="confirmed" value="yes" />
              <input type="hidden" name="message" value={review.fields.message} />
              <input type="hidden" name="endsAt" value={review.fields.endsAt} />
              <Button type="submit" variant="danger" loading={busy('on')}>
                メンテナンスを開始する
              </Button>
            </Form>
            <Form method="get">
              <Button type="submit" variant="plain">
                やめる
              </Button>
            </Form>
          </div>
        </section>
      ) : (
        <Form method="post" className="mt-6 grid gap-4 rounded-2xl border border-line bg-white p-5">
          <input type="hidden" name="intent" value="review" />
          <div className="flex flex-col gap-1.5">
            <label htmlFor="maintenance-message" className="text-sm font-bold">
              会員へのお知らせ文（空欄なら既定の文）
            </label>
            <textarea
              id="maintenance-message"
              name="message"
              rows={3}
              maxLength={messageMaxLength}
              defaultValue={typed?.message ?? state.customMessage ?? ''}
              placeholder={defaultMessage}
              aria-describedby="maintenance-message-hint"
              className="rounded-xl border border-line bg-white px-4 py-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30"
            />
            <p id="maintenance-message-hint" className="text-xs text-muted">
              {messageMaxLength}文字まで。既定の文：{defaultMessage}
            </p>
          </div>
          <TextField
            name="endsAt"
            label="終了予定（日本時間・任意）"
            type="datetime-local"
            defaultValue={typed?.endsAt ?? ''}
            hint="会員のお知らせに表示します。時刻になっても自動では終了しません。"
          />
          <div>
            <Button type="submit" loading={busy('review')}>
              確認へ進む
            </Button>
          </div>
        </Form>
      )}

      <section aria-labelledby="maintenance-scope" className="mt-8 grid gap-4 text-sm sm:grid-cols-2">
        <h2 id="maintenance-scope" className="sr-only">
          メンテナンス中にできること・できないこと
        </h2>
        <div className="rounded-2xl border border-line bg-white p-4">
          <h3 className="font-bold">受け付けない操作（会員）</h3>
          <ul className="mt-1 list-disc pl-5">
            {REFUSED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
        <div className="rounded-2xl border border-line bg-white p-4">
          <h3 className="font-bold">いつもどおり動くもの</h3>
          <ul className="mt-1 list-disc pl-5">
            {KEPT.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      </section>
    </div>
  );
}
