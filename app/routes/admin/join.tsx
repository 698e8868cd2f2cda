// /admin/join?token=…: joining the staff by a mailed invitation. Signed-in members only (visitors go
// to sign-in and come back); shows the role offered and accepts with one button. The admin area then
// asks for the second factor before it opens.
import { Form, redirect, useNavigation } from 'react-router';
import type { Route } from './+types/join';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { actionRefused } from '~/lib/admin-action';
import { AppLink } from '~/components/AppLink';
import { signInPathFor } from '#modules/kernel/navigation';
import { requestFacts } from '~/controllers/admin.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import type { Refusal } from '#modules/kernel';
import {
  acceptInvitation,
  invitationForToken,
  PERMISSION_LABELS,
  STAFF_ROLE_LABELS,
  isAdminPermission,
} from '#modules/admin';

export const handle = { title: 'スタッフ招待' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  if (!shop.member) throw redirect(signInPathFor(url.pathname + url.search));
  const token = url.searchParams.get('token') ?? '';
  const invitation = await invitationForToken(shop.services.db, token);
  if (!invitation) return { token, invitation: null };
  return {
    token,
    invitation: {
      email: invitation.email,
      role: STAFF_ROLE_LABELS[invitation.role],
      permissions:
        invitation.role === 'admin'
          ? ['すべての権限']
          : invitation.permissions.filter(isAdminPermission).map((p) => PERMISSION_LABELS[p]),
      sameEmail: invitation.email.toLowerCase() === shop.member.email.toLowerCase(),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  if (!shop.member) throw redirect(signInPathFor(url.pathname + url.search));
  const fields = await readFormFields(request);
  if (!fields) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const outcome = await acceptInvitation(
    shop.services.db,
    { memberId: shop.member.id, ...requestFacts(shop, request) },
    fields.token ?? '',
  );
  if (!outcome.ok) {
    const { status, message } = describeRefusal(outcome as Refusal<RefusalCode>);
    return actionRefused(message, { status });
  }
  throw redirect('/admin');
}

export default function JoinStaff({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { invitation, token } = loaderData;
  if (!invitation)
    return (
      <section className="rounded-2xl border border-line bg-white p-5">
        <h1 className="text-xl font-black">この招待は使えません</h1>
        <p className="mt-3 text-sm leading-relaxed">
          招待のリンクが無効です（使用済み・取り消し済み・期限切れのいずれか）。管理者に再度招待を依頼してください。
        </p>
        <AppLink to="/" className="mt-4 inline-block text-sm font-bold underline">
          トップへ戻る
        </AppLink>
      </section>
    );
  return (
    <section className="rounded-2xl border border-line bg-white p-5">
      <h1 className="text-xl font-black">運営スタッフへの招待</h1>
      <p className="mt-3 text-sm leading-relaxed">
        {invitation.email} 宛ての招待です。役割: <strong>{invitation.role}</strong>
      </p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {invitation.permissions.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <p className="mt-3 text-sm leading-relaxed text-muted">
        スタッフになると、このアカウントではガチャを引けなくなります。管理画面を開くには二段階認証（認証アプリ）の設定が必要です。
      </p>
      {!invitation.sameEmail ? (
        <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-3 text-sm font-bold">
          いまログインしているアカウントのメールアドレスは招待先と違います。招待先のアドレスの会員としてログインし直してください。
        </p>
      ) : null}
      <ActionAnswer answer={actionData} className="mt-3" />
      <Form method="post" className="mt-5">
        <input type="hidden" name="token" value={token} />
        <Button
          type="submit"
          fullWidth
          size="lg"
          loading={navigation.state === 'submitting'}
          disabled={!invitation.sameEmail}
        >
          招待を受けてスタッフになる
        </Button>
      </Form>
    </section>
  );
}
