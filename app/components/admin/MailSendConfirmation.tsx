// The confirmation before an operator's mail is sent or scheduled (decision 052): it names the recipients
// counted now and the most coins the present can cost, says when a second admin must approve, and submits
// the compose form with the figures it showed (the server counts again and asks again if they grew).
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { MailConfirmationView } from '~/lib/admin-mail';

const n = (value: number) => value.toLocaleString('ja-JP');

/**
 * Rendered inside the compose <Form> (its figures are that form's fields; its button sends that form,
 * named by `formId`, with intent=send): the admin area's ConfirmDialog.
 * @example {confirm ? <MailSendConfirmation formId="mail-compose" confirm={confirm} busy={busy} onClose={() => setOpen(false)} /> : null}
 */
export function MailSendConfirmation(props: {
  formId: string;
  confirm: MailConfirmationView;
  busy: boolean;
  /** Set when the figures changed since the last confirmation (the server asked again). */
  changed?: string;
  onClose: () => void;
}) {
  const { confirm, busy } = props;
  const hasPresent = confirm.coinsPerMember > 0;
  return (
    <ConfirmDialog
      title={confirm.needsApproval ? 'この配信の承認を申請しますか？' : 'このメールを送信しますか？'}
      confirmLabel={
        confirm.needsApproval ? '承認を申請する' : confirm.whenText === 'すぐに送信' ? '送信する' : '予約する'
      }
      formId={props.formId}
      confirmName="intent"
      confirmValue="send"
      onCancel={props.onClose}
      busy={busy}
      bodyClassName="grid"
      testId="mail-send-confirmation"
    >
      <input type="hidden" name="confirmedRecipients" value={confirm.recipients} />
      <input type="hidden" name="confirmedCoins" value={confirm.coinsPerMember} />
      {props.changed ? (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
          {props.changed}
        </p>
      ) : null}
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
        <dt className="text-muted">送り先</dt>
        <dd className="font-bold">{confirm.toText}</dd>
        <dt className="text-muted">送信</dt>
        <dd>{confirm.whenText}</dd>
        <dt className="text-muted">対象の会員</dt>
        <dd>
          <span className="text-lg font-black tabular-nums" data-testid="mail-confirm-recipients">
            {n(confirm.recipients)}人
          </span>
          <span className="block text-xs text-muted">
            {confirm.scheduled
              ? '今の時点で条件に合う会員の数です。予約した送信では、送信時点の条件で届く会員が決まります。'
              : '今の時点で条件に合う会員の数です。'}
          </span>
        </dd>
        <dt className="text-muted">プレゼント</dt>
        <dd>
          {hasPresent ? (
            <>
              <span className="block">1人 {n(confirm.coinsPerMember)}コイン（無償）</span>
              <span className="block text-lg font-black tabular-nums text-danger" data-testid="mail-confirm-total">
                最大 {n(confirm.totalCoins)}コイン
              </span>
              <span className="block text-xs text-muted">
                {n(confirm.recipients)}人 × {n(confirm.coinsPerMember)}コイン。全員が受け取ったときの合計です。
              </span>
            </>
          ) : (
            'なし'
          )}
        </dd>
      </dl>
      {confirm.needsApproval ? (
        <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          合計が{n(confirm.approvalThresholdCoins)}
          コインを超えるため、すぐには送信されません。別の管理者が「承認待ち」で承認したときに送信されます（予約の場合も、承認までは送られません）。
        </p>
      ) : null}
      <p className="mt-3 mb-4 text-xs text-muted">
        送信の直前にもう一度人数を数えます。確認したときより増えていたら、送らずにもう一度確認します。
      </p>
    </ConfirmDialog>
  );
}
