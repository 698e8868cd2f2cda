// /mypage/tokutencode: redeeming 特典コード (docs/decisions/032). Members only (the route's guard and
// the loader). One input and a button; the result (the coins granted) and the member's own history.
// Works without JavaScript (a plain form post); with it, the button shows that it is working.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/tokutencode';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { promoPageAction, promoPageLoader, type PromoActionData } from '~/controllers/promo.server';

export const handle = { title: '特典コード' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return promoPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return promoPageAction(context.get(shopRequestContext), request);
}

export default function TokutenCode({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as PromoActionData | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading
        title="特典コード"
        lead="キャンペーンなどで配布された特典コードを入力すると、無償コインを受け取れます。"
      />
      {result?.granted ? (
        <p
          role="status"
          data-testid="promo-granted"
          className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800"
        >
          {`「${result.granted.label}」の特典として ${result.granted.coins.toLocaleString('ja-JP')} コイン（無償）を受け取りました。`}
        </p>
      ) : null}
      <FormAlert message={result?.formError} />
      <Form method="post" className="flex flex-col gap-3" key={result?.granted ? 'done' : 'form'}>
        <TextField
          name="code"
          label="特典コード"
          hint="大文字・小文字、全角・半角、ハイフンや空白は区別しません。"
          defaultValue={result?.granted ? '' : (result?.code ?? '')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={128}
          required
        />
        <Button type="submit" size="lg" fullWidth loading={busy}>
          コードを使う
        </Button>
      </Form>
      <section aria-labelledby="promo-history" className="flex flex-col gap-2">
        <h2 id="promo-history" className="text-base font-bold">
          利用履歴
        </h2>
        {loaderData.redemptions.length === 0 ? (
          <p className="text-sm text-muted">まだ特典コードを使っていません。</p>
        ) : (
          <ul className="flex flex-col divide-y rounded-xl border" data-testid="promo-history">
            {loaderData.redemptions.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="flex flex-col">
                  <span className="font-bold">{r.label}</span>
                  <time dateTime={r.redeemedAt} className="text-muted">
                    {formatMemberDateTime(r.redeemedAt)}
                  </time>
                </span>
                <span className="shrink-0 font-bold">{`+${r.coins.toLocaleString('ja-JP')} コイン`}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <AppLink to="/mypage" className="text-center text-sm text-muted underline underline-offset-2">
        マイページへ戻る
      </AppLink>
    </div>
  );
}
