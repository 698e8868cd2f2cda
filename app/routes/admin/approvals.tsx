// /admin/approvals (承認待ち; the old /admin/members/approvals redirects here): what waits for a second
// admin, a section per kind, each shown to the operators holding its permission (APPROVAL_READERS): coin
// adjustments above COIN_ADJUSTMENT_APPROVAL_THRESHOLD (coins:grant, decision 026), admin changes
// (staff:write, decision 050) and mails with large presents (mail:write, decision 052). Only an admin other
// than the requester decides.
import { useActionData } from 'react-router';
import type { Route } from './+types/approvals';
import { shopRequestContext } from '#server/context';
import { CoinAdjustmentApprovals } from '~/components/admin/CoinAdjustmentApprovals';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { approvalsAction, approvalsLoader, type MemberActionData } from '~/controllers/admin-members.server';
import { StaffRoleRequestsSection } from '~/components/admin/StaffRoleRequests';
import { staffRoleRequestsAction, staffRoleRequestsLoader } from '~/controllers/admin-staff.server';
import {
  isMailApprovalIntent,
  mailApprovalsAction,
  mailApprovalsLoader,
} from '~/controllers/admin-mail-approvals.server';
import { MailApprovalsSection } from '~/components/admin/MailApprovals';

export const handle = { title: '承認待ち' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const [coins, staffRequests, mail] = await Promise.all([
    approvalsLoader(shop, request),
    staffRoleRequestsLoader(shop, request),
    mailApprovalsLoader(shop, request),
  ]);
  return { coins, staffRequests, mail };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  // Mails with presents (decision 052) have their own intents; the body is read from a copy.
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  if (form && isMailApprovalIntent(form.get('intent'))) return mailApprovalsAction(shop, request, form);
  return (await staffRoleRequestsAction(shop, request)) ?? approvalsAction(shop, request);
}

export default function ApprovalsPage({ loaderData }: Route.ComponentProps) {
  const { coins, staffRequests, mail } = loaderData;
  const answer = useActionData<MemberActionData>();
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">承認待ち</h1>
      <p className="mt-1 text-sm text-muted">
        大きなコイン調整、管理者の変更、大きなプレゼント付きメールは、申請した人とは別の管理者が承認したときに反映されます。
      </p>
      <ActionAnswer answer={answer} className="mt-3" />
      {coins ? <CoinAdjustmentApprovals coins={coins} /> : null}
      {staffRequests ? (
        <StaffRoleRequestsSection items={staffRequests.items} canDecide={staffRequests.canDecide} />
      ) : null}
      {mail ? <MailApprovalsSection mail={mail} /> : null}
    </div>
  );
}
