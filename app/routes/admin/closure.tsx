// /admin/closure (shop:write or orders:refund; decision 085): the shop's closure. An admin announces it after a
// review that shows what members will read, typing 「閉店する」 to confirm (decision 052's guardrail); it can be
// cancelled before the sales stop. Staff with orders:refund record each 払戻し transfer (asks first, with the
// amount); the report for the accounts is a CSV download. Everything is audited.
import { useState } from 'react';
import { useNavigation } from 'react-router';
import type { Route } from './+types/closure';
import { shopRequestContext } from '#server/context';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { Button } from '~/components/Button';
import { TextField } from '~/components/FormField';
import { ClosureAnnounce } from './closure-announce';
import { closurePageAction, closurePageLoader, type ClosureActionData } from '~/controllers/admin-closure.server';

export const handle = { title: '閉店と払戻し' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return closurePageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return closurePageAction(context.get(shopRequestContext), request);
}

const PHASE_LABELS = {
  announced: '告知中（販売は続いています）',
  sales_stopped: '販売停止・払戻し受付中',
  refunds_over: '払戻しの申出期限を過ぎました',
} as const;

type Loader = Route.ComponentProps['loaderData'];

function RefundRow({ refund, busy }: { refund: Loader['refunds'][number]; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  const [reference, setReference] = useState('');
  return (
    <tr className="border-t border-line align-top">
      <td className="px-2 py-2 font-mono text-xs">{refund.memberId}</td>
      <td className="px-2 py-2">{refund.appliedText}</td>
      <td className="px-2 py-2">{refund.account ?? '—'}</td>
      <td className="px-2 py-2 text-right">
        {refund.paidText
          ? `${(refund.refundJpy ?? 0).toLocaleString('ja-JP')}円`
          : `${(refund.paidNow ?? 0).toLocaleString('ja-JP')}円`}
      </td>
      <td className="px-2 py-2">
        {refund.paidText ? (
          `振込済み ${refund.paidText}（${refund.reference}）`
        ) : (
          <>
            <Button onClick={() => setAsking(true)} disabled={(refund.paidNow ?? 0) <= 0}>
              振込を記録
            </Button>
            {asking ? (
              <ConfirmDialog
                title="払戻しの振込を記録しますか？"
                confirmLabel="振込済みとして記録する"
                confirmVariant="danger"
                busy={busy}
                onCancel={() => setAsking(false)}
                hidden={{
                  intent: 'refundPaid',
                  refundId: refund.id,
                  confirmedCoins: String(refund.paidNow ?? 0),
                  reference,
                }}
              >
                <p className="text-sm">
                  {`会員 ${refund.memberId} の有償コイン ${(refund.paidNow ?? 0).toLocaleString('ja-JP')}枚を差し引き、${(refund.paidNow ?? 0).toLocaleString('ja-JP')}円を振り込んだと記録します。取り消せません。`}
                </p>
                <p className="text-sm">振込先：{refund.account}</p>
                <TextField
                  name="referenceTyped"
                  label="振込の参照番号（受付番号など）"
                  value={reference}
                  onChange={(event) => setReference(event.target.value)}
                  required
                  maxLength={100}
                />
              </ConfirmDialog>
            ) : null}
          </>
        )}
      </td>
    </tr>
  );
}

export default function ClosurePage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ClosureActionData | undefined;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [cancelling, setCancelling] = useState(false);
  const { closure, summary } = loaderData;
  const review = answer?.review;
  const typed = review?.fields ?? answer?.typed;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">閉店と払戻し</h1>
      <p className="mt-1 text-sm text-muted">
        資金決済法 第20条：発行をやめるときは、公告し、{loaderData.minDays}
        日以上の申出期間を設けて、未使用の有償コインを払い戻します（無償コインは対象外）。
      </p>
      <ActionAnswer answer={answer?.review ? undefined : answer} className="mt-4" />

      {closure ? (
        <section aria-labelledby="closure-now" className="mt-6 rounded-2xl border border-red-300 bg-red-50 p-5">
          <h2 id="closure-now" className="text-lg font-bold">
            現在の状態：{PHASE_LABELS[closure.phase]}
          </h2>
          <dl className="mt-2 grid gap-1 text-sm">
            <div>
              <dt className="inline font-bold">公告：</dt>
              <dd className="inline">
                {closure.announcedText}（{closure.announcedBy}）
              </dd>
            </div>
            <div>
              <dt className="inline font-bold">販売停止：</dt>
              <dd className="inline">{closure.salesStopText}（日本時間）</dd>
            </div>
            <div>
              <dt className="inline font-bold">払戻しの申出期限：</dt>
              <dd className="inline">{closure.refundDeadlineText}（日本時間）</dd>
            </div>
            {summary ? (
              <div data-testid="closure-summary">
                <dt className="inline font-bold">状況：</dt>
                <dd className="inline">{`通知済み ${summary.notified}人・申し込み ${summary.applied}件・振込済み ${summary.paid}件（${summary.paidJpy.toLocaleString('ja-JP')}円）`}</dd>
              </div>
            ) : null}
          </dl>
          <div className="mt-4 flex flex-wrap gap-3">
            {loaderData.mayReport ? (
              <a
                href="/admin/exports/closure.csv"
                className="font-bold text-red-950 underline underline-offset-2"
                download
              >
                会計用の報告CSVをダウンロード
              </a>
            ) : null}
            {loaderData.mayAnnounce && closure.phase === 'announced' ? (
              <Button variant="secondary" onClick={() => setCancelling(true)}>
                閉店の告知を取り消す
              </Button>
            ) : null}
          </div>
          <ActionAnswer answer={answer?.review ? undefined : answer} form="cancel" className="mt-2" />
          {cancelling ? (
            <ConfirmDialog
              title="閉店の告知を取り消しますか？"
              confirmLabel="取り消す"
              confirmVariant="danger"
              busy={busy('cancel')}
              onCancel={() => setCancelling(false)}
              hidden={{ intent: 'cancel' }}
            >
              <p className="text-sm">
                販売停止の前なので取り消せます。すでに届いた通知は残ります。必要ならメール配信で会員にお知らせしてください。
              </p>
            </ConfirmDialog>
          ) : null}
        </section>
      ) : null}

      {!closure && loaderData.mayAnnounce ? (
        <ClosureAnnounce
          review={review}
          typed={typed}
          busy={busy}
          minDays={loaderData.minDays}
          noticeMaxLength={loaderData.noticeMaxLength}
          confirmationWords={loaderData.confirmationWords}
        />
      ) : null}
      {!closure && !loaderData.mayAnnounce ? (
        <p className="mt-6 text-sm">閉店は告知されていません（告知できるのは管理者だけです）。</p>
      ) : null}

      {closure && loaderData.mayRefund ? (
        <section aria-labelledby="closure-refunds" className="mt-8">
          <h2 id="closure-refunds" className="text-lg font-bold">
            払戻しのお申し込み
          </h2>
          {loaderData.refunds.length === 0 ? (
            <p className="mt-2 text-sm text-muted">まだお申し込みはありません。</p>
          ) : (
            <div className="mt-2 overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="sr-only">払戻しのお申し込み（振込待ちが先）</caption>
                <thead>
                  <tr className="text-left">
                    <th className="px-2 py-2">会員ID</th>
                    <th className="px-2 py-2">申込日時</th>
                    <th className="px-2 py-2">振込先</th>
                    <th className="px-2 py-2 text-right">金額</th>
                    <th className="px-2 py-2">振込</th>
                  </tr>
                </thead>
                <tbody>
                  {loaderData.refunds.map((r) => (
                    <RefundRow key={r.id} refund={r} busy={busy('refundPaid')} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ActionAnswer answer={answer?.review ? undefined : answer} className="mt-2" />
        </section>
      ) : null}
    </div>
  );
}
