// The approvals page's section for mails with presents above MAIL_PRESENT_APPROVAL_THRESHOLD_COINS
// (decision 052): each pending mail with the recipients counted when it was requested and now, and the
// approve (sends it) / reject buttons for an admin other than the requester, each asking first in a sheet.
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { DecisionButtons, RejectNoteField, useDeciding } from '~/components/admin/ApprovalDecision';
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { mailApprovalsLoader } from '~/controllers/admin-mail-approvals.server';

type MailApprovals = NonNullable<Awaited<ReturnType<typeof mailApprovalsLoader>>>;
const n = (value: number) => value.toLocaleString('ja-JP');

/**
 * @example {loaderData.mail ? <MailApprovalsSection mail={loaderData.mail} /> : null}
 */
export function MailApprovalsSection({ mail }: { mail: MailApprovals }) {
  const { asking, setAsking, busy } = useDeciding<'mail-approve' | 'mail-reject'>();
  const target = asking ? mail.items.find((m) => m.id === asking.id) : undefined;
  return (
    <section aria-labelledby="mail-approvals-title" className="mt-8">
      <h2 id="mail-approvals-title" className="text-xl font-black">
        プレゼント付き配信の承認待ち（{n(mail.items.length)}件）
      </h2>
      <p className="mt-1 text-sm text-muted">
        プレゼントの合計（対象の人数 × 1人あたりのコイン）が{n(mail.threshold)}
        コインを超える配信は、申請した人とは別の管理者が承認したときに送信されます。予約の配信も承認までは送られません。
        {mail.canDecide ? '' : '承認・却下は役割が「管理者」のスタッフが行います。'}
      </p>
      {mail.items.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-4 text-sm">承認待ちの配信はありません。</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {mail.items.map((m) => (
            <li key={m.id} className="rounded-2xl border border-line bg-white p-4 text-sm" data-testid="mail-approval">
              <p className="text-base font-bold">{m.subject}</p>
              <p className="mt-1">
                {m.toText}・{m.whenText}
              </p>
              <p className="mt-1">
                プレゼント 1人 {n(m.coinsPerMember)}コイン・最大{' '}
                <strong className="tabular-nums">{n(m.totalNow)}コイン</strong>（今の対象 {n(m.recipientsNow)}人
                {m.recipientsNow !== m.requestedRecipients ? `・申請時 ${n(m.requestedRecipients)}人` : ''}）
              </p>
              <p className="mt-1 text-xs text-muted">
                申請：{m.requestedLabel}・{formatStaffDateTime(m.requestedAt)}
              </p>
              {mail.canDecide ? (
                <DecisionButtons
                  mine={m.mine}
                  approveLabel="承認して送信"
                  onApprove={() => setAsking({ id: m.id, intent: 'mail-approve' })}
                  onReject={() => setAsking({ id: m.id, intent: 'mail-reject' })}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {asking && target ? (
        <ConfirmDialog
          title={asking.intent === 'mail-approve' ? 'この配信を承認して送信しますか？' : 'この配信を却下しますか？'}
          confirmLabel={asking.intent === 'mail-approve' ? '承認して送信' : '却下する'}
          confirmVariant={asking.intent === 'mail-approve' ? 'primary' : 'danger'}
          hidden={{
            intent: asking.intent,
            id: target.id,
            confirmedRecipients: target.recipientsNow,
            confirmedCoins: target.coinsPerMember,
          }}
          onCancel={() => setAsking(null)}
          busy={busy}
          testId="mail-approval-confirmation"
          bodyClassName="mt-3 grid gap-3"
        >
          <p className="text-sm">
            「{target.subject}」を
            {n(target.recipientsNow)}人に、1人 {n(target.coinsPerMember)}コインのプレゼント付きで
            {asking.intent === 'mail-approve' ? '送信します。' : '送る申請を却下します。'}
          </p>
          {asking.intent === 'mail-approve' ? (
            <p className="text-lg font-black text-danger">最大 {n(target.totalNow)}コイン</p>
          ) : (
            <RejectNoteField />
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
