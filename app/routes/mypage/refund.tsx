// /mypage/refund: the member's 払戻し of unused paid coins when the shop closes (decision 085, 資金決済法 第20条).
// Members only. Their balances and the refundable yen, the deadline, the bank account form (asks first), and
// once applied, the account as registered (masked) and the transfer when it is recorded.
import type { Route } from './+types/refund';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { RefundApplication } from '~/components/closure/RefundApplication';
import { refundPageAction, refundPageLoader, type RefundActionData } from '~/controllers/closure-refund.server';

export const handle = { title: '払戻しのお申し込み' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return refundPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return refundPageAction(context.get(shopRequestContext), request);
}

export default function RefundPage({ loaderData, actionData }: Route.ComponentProps) {
  const { closure } = loaderData;
  if (!closure)
    return (
      <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
        <PageHeading title="払戻しのお申し込み" lead="現在、払戻しは受け付けていません。" />
      </div>
    );
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading
        title="払戻しのお申し込み"
        lead={`閉店にともない、未使用の有償コインを1コイン1円で払い戻します。申出期限：${closure.refundDeadlineText}（日本時間）`}
      />
      <RefundApplication data={{ ...loaderData, closure }} answer={actionData as RefundActionData | undefined} />
    </div>
  );
}
