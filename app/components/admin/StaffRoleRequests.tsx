// Admin changes waiting for a second admin (docs/decisions/050): the approvals page's section (approve
// or reject, each asked first in a sheet) and the staff page's short list of what waits.
import { Link } from 'react-router';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { DecisionButtons, RejectNoteField, useDeciding } from '~/components/admin/ApprovalDecision';
import { formatStaffDateTime } from '#modules/kernel/dates';

/** One waiting request as the pages show it. */
export interface StaffRoleRequestRow {
  id: string;
  /** What is asked, in words: 管理者として招待, 役割の変更, スタッフから外す. */
  what: string;
  /** Whom it is about: the invited address or the staff member's address. */
  who: string;
  /** The role asked for, in words. */
  roleLabel: string;
  requestedLabel: string;
  requestedAt: string;
  /** The operator asked for it, or it is about them: they cannot decide it. */
  mine?: boolean;
}

/**
 * The staff page's list of admin changes that wait (nothing when none), with the way to the approvals.
 * @example <StaffRequestsWaiting requests={loaderData.requests} />
 */
export function StaffRequestsWaiting({ requests }: { requests: StaffRoleRequestRow[] }) {
  if (requests.length === 0) return null;
  return (
    <section aria-labelledby="staff-requests" className="mt-8">
      <h2 id="staff-requests" className="text-lg font-bold">
        承認待ちの管理者の変更（{requests.length}件）
      </h2>
      <p className="mt-1 text-sm text-muted">
        管理者の招待・任命・変更・解除は、申請した人とは別の管理者が承認したときに反映されます。
        <Link to="/admin/approvals" className="underline">
          承認待ち一覧へ
        </Link>
      </p>
      <ul className="mt-3 grid gap-2">
        {requests.map((r) => (
          <li key={r.id} className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm">
            <span className="font-bold">{r.what}</span>：<span className="break-all">{r.who}</span> → {r.roleLabel}
            <span className="block text-xs text-muted">
              申請：{r.requestedLabel}・{formatStaffDateTime(r.requestedAt)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The approvals page's section: every waiting admin change, approved or rejected by an admin who
 * neither asked for it nor is its subject.
 * @example <StaffRoleRequestsSection items={loaderData.staffRequests.items} canDecide={loaderData.staffRequests.canDecide} />
 */
export function StaffRoleRequestsSection({ items, canDecide }: { items: StaffRoleRequestRow[]; canDecide: boolean }) {
  const { asking, setAsking, busy } = useDeciding<'staff-approve' | 'staff-reject'>();
  const target = asking ? items.find((r) => r.id === asking.id) : undefined;
  const approving = asking?.intent === 'staff-approve';
  return (
    <section aria-labelledby="staff-role-requests" className="mt-8">
      <h2 id="staff-role-requests" className="text-xl font-black">
        管理者の変更の承認待ち（{items.length}件）
      </h2>
      <p className="mt-1 text-sm text-muted">
        管理者の招待・任命・変更・解除は、申請した人とは別の管理者が承認したときに反映されます。
        {canDecide ? '' : '承認・却下は役割が「管理者」のスタッフが行います。'}
      </p>
      {items.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-4 text-sm">承認待ちの管理者の変更はありません。</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {items.map((r) => (
            <li key={r.id} className="rounded-2xl border border-line bg-white p-4 text-sm">
              <p className="text-base font-bold">{r.what}</p>
              <p className="mt-1 break-all">
                対象：{r.who} → {r.roleLabel}
              </p>
              <p className="mt-1 text-xs text-muted">
                申請：{r.requestedLabel}・{formatStaffDateTime(r.requestedAt)}
              </p>
              {canDecide ? (
                <DecisionButtons
                  mine={r.mine}
                  mineText="自分が申請したもの・自分についての申請は承認・却下できません。"
                  approveLabel="承認して反映"
                  onApprove={() => setAsking({ id: r.id, intent: 'staff-approve' })}
                  onReject={() => setAsking({ id: r.id, intent: 'staff-reject' })}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {asking && target ? (
        <ConfirmDialog
          title={approving ? 'この管理者の変更を承認しますか？' : 'この管理者の変更を却下しますか？'}
          confirmLabel={approving ? '承認して反映' : '却下する'}
          confirmVariant={approving ? 'primary' : 'danger'}
          hidden={{ intent: asking.intent, id: target.id }}
          onCancel={() => setAsking(null)}
          busy={busy}
        >
          <p className="text-sm">
            {target.what}：{target.who} → {target.roleLabel}
            {approving ? '。承認するとすぐに反映されます。' : '。申請を却下し、何も変更しません。'}
          </p>
          {approving ? null : <RejectNoteField />}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
