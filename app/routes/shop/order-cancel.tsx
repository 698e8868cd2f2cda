// /shop/orders/:orderId/cancel?back=…: a checkout the member left open, cancelled after one question
// (decision 058). The provider is asked first: a payment that went through is credited and its page
// shown instead. Without JavaScript too (a plain form).
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/order-cancel';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert } from '~/components/FormField';
import { formatYen } from '~/lib/numbers';
import { openCheckoutLinks } from '~/components/shop/OpenCheckoutNotice';
import { cancelCheckoutAction, cancelCheckoutLoader } from '~/controllers/open-checkout.server';

export const handle = { title: 'お支払い手続きのキャンセル' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return cancelCheckoutLoader(context.get(shopRequestContext), request, params.orderId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return cancelCheckoutAction(context.get(shopRequestContext), request, params.orderId);
}

export default function CancelCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { order, open, back } = loaderData;
  const navigation = useNavigation();
  const canceling = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'cancel';
  const error = (actionData as { error?: string } | undefined)?.error;
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4">
      <PageHeading
        title="お支払い手続きのキャンセル"
        lead={open ? '途中のお支払いをキャンセルすると、このパックをもう一度選び直せます。' : undefined}
      />
      <section aria-labelledby="open-order" className="rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="open-order" className="text-base font-bold">
          {order.packName}
        </h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted">金額</dt>
          <dd className="text-right font-bold">{formatYen(order.amountJpy)}</dd>
          <dt className="text-muted">お支払い方法</dt>
          <dd className="text-right">{order.methodLabel}</dd>
          <dt className="text-muted">状態</dt>
          <dd className="text-right" data-testid="open-order-status">
            {order.statusLabel}
          </dd>
        </dl>
      </section>
      <FormAlert message={error} />
      {open ? (
        <>
          <p className="text-sm leading-relaxed">
            お支払いがまだ終わっていない手続きです。キャンセルすると決済会社の画面でも支払えなくなります。
            すでにお支払いが済んでいた場合はキャンセルされず、コインをお届けします。
          </p>
          <Form method="post" className="flex flex-col gap-2">
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="back" value={back} />
            <Button type="submit" variant="danger" size="lg" fullWidth loading={canceling}>
              この手続きをキャンセルする
            </Button>
          </Form>
          <ButtonLink to={openCheckoutLinks(order.id, back).resume} reloadDocument variant="secondary" fullWidth>
            お支払いを再開する
          </ButtonLink>
        </>
      ) : (
        <p role="status" className="rounded-xl bg-canvas p-3 text-sm">
          この手続きはすでに終わっています（{order.statusLabel}）。
        </p>
      )}
      <ButtonLink to={back} variant="plain" fullWidth>
        戻る
      </ButtonLink>
    </div>
  );
}
