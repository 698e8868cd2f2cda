// /admin/orders/:orderId: one coin purchase. What was sold and credited, the provider's references,
// what a refund or chargeback reversed, the provider's events as they arrived, and the whole-order
// refund (orders:refund) after asking, with the reason kept in the audit log.
import { Link, useActionData } from 'react-router';
import type { Route } from './+types/order';
import { shopRequestContext } from '#server/context';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { orderPageAction, orderPageLoader, type OrderActionData } from '~/controllers/admin-orders.server';
import { OrderDecisions } from './order-decisions';
import { OrderFacts, ProviderEvents } from './order-facts';

export const handle = { title: '注文の詳細' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return orderPageLoader(context.get(shopRequestContext), request, params.orderId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return orderPageAction(context.get(shopRequestContext), request, params.orderId);
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { order: o, events, reviewReason, members } = loaderData;
  const answer = useActionData<OrderActionData>();
  return (
    <div className="max-w-5xl">
      <p className="text-sm">
        <Link to="/admin/orders" className="underline">
          注文の一覧に戻る
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">
        注文 <span className="font-mono">{o.receiptNo}</span>
      </h1>
      <ActionAnswer answer={answer} className="mt-3" />
      <OrderFacts order={o} reviewReason={reviewReason} members={members} />
      <OrderDecisions data={loaderData} answer={answer} />
      <ProviderEvents events={events} />
    </div>
  );
}
