// Admin changes waiting for a second admin (docs/decisions/050): the approvals page's section (approve
// or reject, each asked first in a sheet) and the staff page's short list of what waits.
import { useEffect, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
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
  const answer = useActionData();
  const navigation = useNavigation();
  const [asking, setAsking] = useState<{ id: string; intent: 'staff-approve' | 'staff-reject' } | null>(null);
  const busy = navigation.state === 'submitting';
  useEffect(() => {
    if (answer) setAsking(null);
  }, [answer]);
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
                r.mine ? (
                  <p className="mt-2 text-xs font-bold text-muted">
                    自分が申請したもの・自分についての申請は承認・却下できません。
                  </p>
                ) : (
                  <div className="mt-3 flex gap-3">
                    <Button onClick={() => setAsking({ id: r.id, intent: 'staff-approve' })}>承認して反映</Button>
                    <Button variant="secondary" onClick={() => setAsking({ id: r.id, intent: 'staff-reject' })}>
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
          title={approving ? 'この管理者の変更を承認しますか？' : 'この管理者の変更を却下しますか？'}
          onClose={() => setAsking(null)}
          busy={busy}
        >
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value={asking.intent} />
            <input type="hidden" name="id" value={target.id} />
            <p className="text-sm">
              {target.what}：{target.who} → {target.roleLabel}
              {approving ? '。承認するとすぐに反映されます。' : '。申請を却下し、何も変更しません。'}
            </p>
            {approving ? null : (
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
              <Button type="submit" variant={approving ? 'primary' : 'danger'} loading={busy}>
                {approving ? '承認して反映' : '却下する'}
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
