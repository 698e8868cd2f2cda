// The order page's decisions (orders:refund): the review queue's judgement (credit the coins, or keep
// them after a partial refund) and the whole-order refund, each asked first with the reason kept in the
// audit log.
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import type { Route } from './+types/order';
import { Button } from '~/components/Button';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { OrderActionData } from '~/controllers/admin-orders.server';
import { n } from './order-facts';

type OrderData = Route.ComponentProps['loaderData'];

/** The reason an operator gives for a decision, kept in the audit log. */
function ReasonField({ label }: { label: string }) {
  return (
    <label className="text-xs font-bold">
      {label}（監査ログに残ります）
      <textarea
        name="reason"
        required
        maxLength={500}
        rows={3}
        className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
      />
    </label>
  );
}

/**
 * @example <OrderDecisions data={loaderData} answer={answer} />
 */
export function OrderDecisions({
  data,
  answer,
}: {
  data: Pick<OrderData, 'order' | 'canRefund' | 'refundable' | 'reviewReason' | 'reviewDecisions'>;
  answer: OrderActionData | undefined;
}) {
  const { order: o, canRefund, refundable, reviewReason, reviewDecisions } = data;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const [asking, setAsking] = useState(false);
  const [deciding, setDeciding] = useState<'credit' | 'keep' | null>(null);
  useEffect(() => {
    if (answer?.ok || answer?.error) setDeciding(null);
    if (answer?.ok) setAsking(false);
  }, [answer]);
  return (
    <>
      {reviewReason ? (
        <section aria-labelledby="review" className="mt-4 rounded-2xl border border-amber-300 bg-amber-50 p-4">
          <h2 id="review" className="text-base font-bold">
            確認中（保留）の判断
          </h2>
          <p className="mt-1 text-sm">保留の理由: {reviewReason}</p>
          {reviewDecisions.includes('credit') ? (
            <>
              <p className="mt-1 text-sm">
                支払いは確認できています。会員に確認のうえ問題なければ、この注文のコインを付与して完了します（上限や初回限定の条件はこの判断で例外とします）。そうでなければ返金してください。
              </p>
              <Button className="mt-3" onClick={() => setDeciding('credit')}>
                コインを付与して完了する
              </Button>
            </>
          ) : reviewDecisions.includes('keep') ? (
            <>
              <p className="mt-1 text-sm">
                決済事業者で一部が返金されました。コインを取り消さずに完了するか、全額返金してください。
              </p>
              <Button variant="secondary" className="mt-3" onClick={() => setDeciding('keep')}>
                コインはそのままで完了する
              </Button>
            </>
          ) : (
            <p className="mt-1 text-sm">
              {canRefund ? 'この理由の注文は返金で対応します。' : '判断には「注文の返金」の権限が必要です。'}
            </p>
          )}
        </section>
      ) : null}

      {canRefund ? (
        <section aria-labelledby="refund" className="mt-4 rounded-2xl border border-line bg-white p-4">
          <h2 id="refund" className="text-base font-bold">
            返金
          </h2>
          <p className="mt-1 text-sm text-muted">
            全額を決済事業者で返金し、この注文で付与したコインのうち残っている分を取り消します。
          </p>
          <Button variant="danger" className="mt-3" onClick={() => setAsking(true)}>
            全額返金する
          </Button>
        </section>
      ) : refundable ? (
        <p className="mt-4 text-sm text-muted">返金には「注文の返金」の権限が必要です。</p>
      ) : null}

      {deciding ? (
        <ConfirmDialog
          title={deciding === 'credit' ? 'コインを付与して完了しますか？' : 'コインはそのままで完了しますか？'}
          confirmLabel={deciding === 'credit' ? '付与して完了する' : '完了する'}
          hidden={{ intent: 'review', decision: deciding }}
          onCancel={() => setDeciding(null)}
          busy={busy}
          bodyClassName="grid gap-3 text-sm"
        >
          <p>
            {deciding === 'credit'
              ? `有償${n(o.paidCoins)}コイン${o.bonusCoins + o.rankBonusCoins ? `と無償${n(o.bonusCoins + o.rankBonusCoins)}コイン` : ''}を会員に付与し、注文を「支払い済み」にします。元に戻すには返金が必要です。`
              : '付与済みのコインは取り消さず、注文を「支払い済み」にします。'}
          </p>
          <ReasonField label="判断の理由" />
        </ConfirmDialog>
      ) : null}

      {asking ? (
        <ConfirmDialog
          title={`¥${n(o.amountJpy)}を返金しますか？`}
          confirmLabel="返金する"
          confirmVariant="danger"
          hidden={{ intent: 'refund' }}
          onCancel={() => setAsking(false)}
          busy={busy}
          bodyClassName="grid gap-3 text-sm"
        >
          <p>
            決済事業者で全額を返金し、残っているコインを取り消します。元に戻せません。会員が使ったコインは取り消せず、記録に残ります。
          </p>
          <ReasonField label="返金の理由" />
        </ConfirmDialog>
      ) : null}
    </>
  );
}
