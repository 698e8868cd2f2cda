// Coin adjustments above COIN_ADJUSTMENT_APPROVAL_THRESHOLD that wait for a second admin (decision 026):
// the approvals page's section. Only an admin other than the requester approves (which applies it, once)
// or rejects; each asks first in a sheet. Staff with coins:grant see the list and who is asked.
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { DecisionButtons, RejectNoteField, useDeciding } from '~/components/admin/ApprovalDecision';
import { MemberTag } from '~/components/admin/MemberTag';
import type { CoinAdjustmentApprovalsView } from '~/controllers/admin-members.server';
import { formatStaffDateTime } from '#modules/kernel/dates';

const n = (value: number) => value.toLocaleString('ja-JP');

/**
 * Every waiting coin adjustment with its member, amount and reason; approve or reject, asked first.
 * @example <CoinAdjustmentApprovals coins={loaderData.coins} />
 */
export function CoinAdjustmentApprovals({ coins }: { coins: CoinAdjustmentApprovalsView }) {
  const { items, canDecide, threshold, members } = coins;
  const { asking, setAsking, busy } = useDeciding<'approve' | 'reject'>();
  const target = asking ? items.find((a) => a.id === asking.id) : undefined;
  return (
    <section aria-labelledby="coin-approvals" className="mt-6">
      <h2 id="coin-approvals" className="text-lg font-bold">
        コイン調整の承認待ち（{n(items.length)}件）
      </h2>
      <p className="mt-1 text-sm text-muted">
        {n(threshold)}
        枚を超えるコイン調整は、申請した人とは別の管理者が承認したときに反映されます。
        {canDecide ? '' : '承認・却下は役割が「管理者」のスタッフが行います。'}
      </p>
      {items.length === 0 ? (
        <p className="mt-3 rounded-xl bg-white p-4 text-sm">承認待ちの調整はありません。</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {items.map((a) => (
            <li key={a.id} className="rounded-2xl border border-line bg-white p-4 text-sm">
              <p className="text-base font-bold">
                {a.kindLabel}コイン {a.amount > 0 ? '+' : '−'}
                {n(Math.abs(a.amount))}枚
              </p>
              <p className="mt-1">
                会員：
                <MemberTag tag={members[a.memberId]} memberId={a.memberId} />{' '}
                <span className="text-muted">{a.memberEmail}</span>
              </p>
              <p className="mt-1">理由：{a.reason}</p>
              <p className="mt-1 text-xs text-muted">
                申請：{a.requestedLabel}・{formatStaffDateTime(a.requestedAt)}
              </p>
              {canDecide ? (
                <DecisionButtons
                  mine={a.mine}
                  approveLabel="承認して反映"
                  onApprove={() => setAsking({ id: a.id, intent: 'approve' })}
                  onReject={() => setAsking({ id: a.id, intent: 'reject' })}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {asking && target ? (
        <ConfirmDialog
          title={asking.intent === 'approve' ? 'この調整を承認しますか？' : 'この調整を却下しますか？'}
          confirmLabel={asking.intent === 'approve' ? '承認して反映' : '却下する'}
          confirmVariant={asking.intent === 'approve' ? 'primary' : 'danger'}
          hidden={{ intent: asking.intent, id: target.id }}
          onCancel={() => setAsking(null)}
          busy={busy}
        >
          <p className="text-sm">
            {target.memberName ?? target.memberId} さんの{target.kindLabel}コインを
            {target.amount > 0 ? '+' : '−'}
            {n(Math.abs(target.amount))}枚
            {asking.intent === 'approve' ? '調整し、会員のコイン履歴に反映します。' : '調整する申請を却下します。'}
          </p>
          {asking.intent === 'reject' ? <RejectNoteField /> : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
