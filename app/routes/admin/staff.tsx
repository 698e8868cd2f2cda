// /admin/staff: the staff and their permissions. Invite by mail (role and permissions), change a
// staff member's access, take them off the staff, withdraw a pending invitation (these two ask first).
// Every change is audited by the admin module; an operator never changes their own access, offers only
// the permissions they hold, and an admin change waits for a second admin (docs/decisions/050).
import { useEffect, useRef, useState } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/staff';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { TextField } from '~/components/FormField';
import { StaffRequestsWaiting } from '~/components/admin/StaffRoleRequests';
import { staffPageAction, staffPageLoader, type StaffActionData } from '~/controllers/admin-staff.server';
import { formatStaffDateTime } from '#modules/kernel/dates';

export const handle = { title: 'スタッフ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return staffPageAction(context.get(shopRequestContext), request);
}

type Permission = { id: string; label: string; grantable: boolean };

function PermissionBoxes({ all, checked, idPrefix }: { all: Permission[]; checked: string[]; idPrefix: string }) {
  return (
    <fieldset className="grid gap-1.5 sm:grid-cols-2">
      <legend className="mb-1 text-xs font-bold">権限（役割がスタッフのとき・自分が持つ権限だけ付与できます）</legend>
      {all.map((p) => (
        <label
          key={p.id}
          htmlFor={`${idPrefix}-${p.id}`}
          className={`flex items-start gap-2 text-sm${p.grantable ? '' : ' text-muted'}`}
        >
          <input
            id={`${idPrefix}-${p.id}`}
            type="checkbox"
            name="permission"
            value={p.id}
            defaultChecked={p.grantable && checked.includes(p.id)}
            disabled={!p.grantable}
            aria-describedby={p.grantable ? undefined : `${idPrefix}-${p.id}-why`}
            className="mt-1 size-4"
          />
          <span>
            {p.label} <code className="text-xs text-muted">{p.id}</code>
            {p.grantable ? null : (
              <span id={`${idPrefix}-${p.id}-why`} className="block text-xs">
                あなたが持っていない権限のため付与できません
              </span>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function RoleSelect({
  defaultValue,
  id,
  canAskForAdmin,
}: {
  defaultValue: string;
  id: string;
  canAskForAdmin: boolean;
}) {
  return (
    <label htmlFor={id} className="text-xs font-bold">
      役割
      <select
        id={id}
        name="role"
        defaultValue={defaultValue}
        className="mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm"
      >
        <option value="staff">スタッフ（選んだ権限のみ）</option>
        <option value="admin" disabled={!canAskForAdmin}>
          {canAskForAdmin ? '管理者（すべての権限・別の管理者の承認後に反映）' : '管理者（管理者だけが申請できます）'}
        </option>
      </select>
    </label>
  );
}

type LoaderData = Route.ComponentProps['loaderData'];

/** One staff member: role and second factor, and (for someone else) the form that changes their access. */
function StaffMemberCard({
  member: s,
  isMe,
  permissions,
  canAskForAdmin,
  answer,
  busy,
  onRevoke,
}: {
  member: LoaderData['staff'][number];
  isMe: boolean;
  permissions: LoaderData['permissions'];
  canAskForAdmin: boolean;
  answer: StaffActionData | undefined;
  busy: (intent: string, id?: string) => boolean;
  onRevoke: () => void;
}) {
  return (
    <li className="rounded-2xl border border-line bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-bold break-all">
          {s.email} <span className="text-sm font-normal text-muted">（{s.name}）</span>
        </p>
        <p className="text-sm">
          <span className="rounded bg-slate-100 px-2 py-0.5 font-bold">{s.roleLabel}</span>{' '}
          {s.twoFactorEnabled ? (
            <span className="text-green-800">二段階認証 設定済み</span>
          ) : (
            <span className="font-bold text-danger">二段階認証 未設定（管理画面を開けません）</span>
          )}
        </p>
      </div>
      {isMe ? (
        <p className="mt-2 text-sm text-muted">あなたのアカウントです。自分の権限は変更できません。</p>
      ) : s.locked ? (
        <p className="mt-2 text-sm text-muted">{s.locked}</p>
      ) : (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-bold underline">権限を変更・スタッフから外す</summary>
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="access" />
            <input type="hidden" name="id" value={s.id} />
            <ActionAnswer answer={answer} form={s.id} />
            <RoleSelect defaultValue={s.role} id={`role-${s.id}`} canAskForAdmin={canAskForAdmin} />
            <PermissionBoxes all={permissions} checked={s.permissions} idPrefix={`perm-${s.id}`} />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" loading={busy('access', s.id)}>
                変更を保存
              </Button>
              <Button variant="danger" onClick={onRevoke}>
                スタッフから外す
              </Button>
            </div>
          </Form>
        </details>
      )}
    </li>
  );
}

export default function StaffPage({ loaderData }: Route.ComponentProps) {
  const answer = useActionData<StaffActionData>();
  const navigation = useNavigation();
  const busy = (intent: string, id?: string) =>
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    (id === undefined || navigation.formData?.get('id') === id);
  const [revoking, setRevoking] = useState<{ id: string; email: string } | null>(null);
  const [withdrawing, setWithdrawing] = useState<{ id: string; email: string } | null>(null);
  // The dialog closes once the revocation or withdrawal has answered (the answer shows above the list).
  useEffect(() => {
    if (answer?.form === 'list' || answer?.error) {
      setRevoking(null);
      setWithdrawing(null);
    }
  }, [answer]);
  // A sent invitation empties its form for the next one.
  const inviteForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.form === 'invite' && answer.ok) inviteForm.current?.reset();
  }, [answer]);
  const { staff, invitations, permissions, me, canAskForAdmin, requests } = loaderData;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">スタッフ</h1>
      <p className="mt-1 text-sm text-muted">
        スタッフは管理画面を開く前に二段階認証（認証アプリ）の設定が必要です。スタッフ・管理者のアカウントではガチャを引けません。
      </p>
      <div className="mt-4">
        <ActionAnswer answer={answer} form="list" />
      </div>

      <section aria-labelledby="staff-list" className="mt-6">
        <h2 id="staff-list" className="text-lg font-bold">
          スタッフ一覧（{staff.length}人）
        </h2>
        <ul className="mt-3 grid gap-3">
          {staff.map((s) => (
            <StaffMemberCard
              key={s.id}
              member={s}
              isMe={s.id === me}
              permissions={permissions}
              canAskForAdmin={canAskForAdmin}
              answer={answer}
              busy={busy}
              onRevoke={() => setRevoking({ id: s.id, email: s.email })}
            />
          ))}
        </ul>
      </section>

      <section aria-labelledby="invitations" className="mt-8">
        <h2 id="invitations" className="text-lg font-bold">
          招待中（{invitations.length}件）
        </h2>
        {invitations.length === 0 ? (
          <p className="mt-2 text-sm text-muted">招待中の人はいません。</p>
        ) : (
          <ul className="mt-3 grid gap-2">
            {invitations.map((i) => (
              <li
                key={i.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-line bg-white p-3 text-sm"
              >
                <span className="break-all">
                  {i.email}（{i.roleLabel}）・招待者 {i.invitedBy}・期限 {formatStaffDateTime(i.expiresAt)}
                </span>
                {i.locked ? (
                  <span className="text-xs text-muted">{i.locked}</span>
                ) : (
                  <Button variant="secondary" onClick={() => setWithdrawing({ id: i.id, email: i.email })}>
                    招待を取り消す
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <StaffRequestsWaiting requests={requests} />

      <section aria-labelledby="invite" className="mt-8 max-w-2xl rounded-2xl border border-line bg-white p-5">
        <h2 id="invite" className="text-lg font-bold">
          スタッフを招待する
        </h2>
        <p className="mt-1 text-sm text-muted">
          招待メールのリンクを、そのアドレスの会員としてログインして開くとスタッフになります（有効期限7日）。
        </p>
        <Form method="post" ref={inviteForm} className="mt-4 grid gap-4">
          <input type="hidden" name="intent" value="invite" />
          <ActionAnswer answer={answer} form="invite" />
          <TextField name="email" type="email" label="メールアドレス" autoComplete="off" required />
          <RoleSelect defaultValue="staff" id="invite-role" canAskForAdmin={canAskForAdmin} />
          <PermissionBoxes all={permissions} checked={[]} idPrefix="invite" />
          <div>
            <Button type="submit" loading={busy('invite')}>
              招待メールを送る
            </Button>
          </div>
        </Form>
      </section>

      {revoking ? (
        <ConfirmDialog
          title="スタッフから外しますか？"
          confirmLabel="外す"
          confirmVariant="danger"
          hidden={{ intent: 'revoke', id: revoking.id }}
          busy={busy('revoke', revoking.id)}
          onCancel={() => setRevoking(null)}
          bodyClassName="grid gap-4"
        >
          <p className="text-sm">
            {revoking.email}{' '}
            は管理画面を開けなくなり、すべての権限がなくなります。会員としてのアカウントはそのまま残ります。
          </p>
        </ConfirmDialog>
      ) : null}
      {withdrawing ? (
        <ConfirmDialog
          title="招待を取り消しますか？"
          confirmLabel="取り消す"
          confirmVariant="danger"
          hidden={{ intent: 'withdraw', id: withdrawing.id }}
          busy={busy('withdraw', withdrawing.id)}
          onCancel={() => setWithdrawing(null)}
          bodyClassName="grid gap-4"
        >
          <p className="text-sm">{withdrawing.email} への招待を取り消します。招待メールのリンクは使えなくなります。</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
