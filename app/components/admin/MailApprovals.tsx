// The approvals page's section for mails with presents above MAIL_PRESENT_APPROVAL_THRESHOLD_COINS
// (decision 052): each pending mail with the recipients counted when it was requested and now, and the
// approve (sends it) / reject buttons for an admin other than the requester, each asking first in a sheet.
import { useEffect, useState } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { MailApprovalActionData, mailApprovalsLoader } from '~/controllers/admin-mail-approvals.server';

type MailApprovals = NonNullable<Awaited<ReturnType<typeof mailApprovalsLoader>>>;
const n = (value: number) => value.toLocaleString('ja-JP');

/**
 * @example {loaderData.mail ? <MailApprovalsSection mail={loaderData.mail} /> : null}
 */
export function MailApprovalsSection({ mail }: { mail: MailApprovals }) {
  const answer = useActionData<MailApprovalActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const [asking, setAsking] = useState<{ id: string; intent: 'mail-approve' | 'mail-reject' } | null>(null);
  useEffect(() => {
    if (answer) setAsking(null);
  }, [answer]);
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
                m.mine ? (
                  <p className="mt-2 text-xs font-bold text-muted">自分の申請は承認・却下できません。</p>
                ) : (
                  <div className="mt-3 flex gap-3">
                    <Button onClick={() => setAsking({ id: m.id, intent: 'mail-approve' })}>承認して送信</Button>
                    <Button variant="secondary" onClick={() => setAsking({ id: m.id, intent: 'mail-reject' })}>
                      却下
                    </Button>
                  </div>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {asking && target ? (
        <Sheet
          title={asking.intent === 'mail-approve' ? 'この配信を承認して送信しますか？' : 'この配信を却下しますか？'}
          onClose={() => setAsking(null)}
          busy={busy}
          testId="mail-approval-confirmation"
        >
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value={asking.intent} />
            <input type="hidden" name="id" value={target.id} />
            <input type="hidden" name="confirmedRecipients" value={target.recipientsNow} />
            <input type="hidden" name="confirmedCoins" value={target.coinsPerMember} />
            <p className="text-sm">
              「{target.subject}」を
              {n(target.recipientsNow)}人に、1人 {n(target.coinsPerMember)}コインのプレゼント付きで
              {asking.intent === 'mail-approve' ? '送信します。' : '送る申請を却下します。'}
            </p>
            {asking.intent === 'mail-approve' ? (
              <p className="text-lg font-black text-danger">最大 {n(target.totalNow)}コイン</p>
            ) : (
              <label className="text-xs font-bold">
                却下の理由（任意・200文字まで）
                <textarea
                  name="note"
                  rows={2}
                  maxLength={200}
                  className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
                />
              </label>
            )}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant={asking.intent === 'mail-approve' ? 'primary' : 'danger'} loading={busy}>
                {asking.intent === 'mail-approve' ? '承認して送信' : '却下する'}
              </Button>
              <Button variant="secondary" onClick={() => setAsking(null)} disabled={busy}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </section>
  );
}
