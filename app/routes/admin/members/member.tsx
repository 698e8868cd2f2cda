// /admin/members/:memberId: one member for the operators. Profile and status, wallet by lot with
// expiry, the ledger, draws, prizes by status, shipping requests, purchases, sessions and staff notes,
// each section limited or paged on its own (the page stays fast for a member with thousands of rows).
// Actions by permission: a coin adjustment (coins:grant; above the threshold it waits for another
// admin), ban and unban, sign-out everywhere, purchase hold and its clearing, the age declaration and
// notes (members:write). Destructive ones ask first in a sheet.
import { Link, useActionData } from 'react-router';
import type { Route } from './+types/member';
import { shopRequestContext } from '#server/context';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { MemberStatusBadges } from '~/components/MemberStatusBadges';
import { memberPageAction, memberPageLoader, type MemberActionData } from '~/controllers/admin-members.server';
import { AccountActions } from './member-account';
import {
  DrawsSection,
  OrdersSection,
  PrizesSection,
  SessionsSection,
  ShippingSection,
  SignalsSection,
} from './member-activity';
import { AdjustSection, LedgerSection, WalletSection } from './member-coins';
import { NotesSection } from './member-notes';
import { RestrictionsSection } from './member-restrictions';
import { ProfileSection } from './member-profile';

export const handle = { title: '会員詳細' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return memberPageLoader(context.get(shopRequestContext), request, params.memberId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return memberPageAction(context.get(shopRequestContext), request, params.memberId);
}

export default function MemberPage({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  const p = d.profile;
  const answer = useActionData<MemberActionData>();
  const actionable = d.can.write && !d.self && !p.deleted;

  return (
    <div className="max-w-7xl">
      <p className="text-sm">
        <Link to="/admin/members" className="underline">
          会員検索に戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-black">{p.name}</h1>
        <MemberStatusBadges member={{ ...p, hold: d.hold?.label ?? null }} />
      </div>
      <ActionAnswer className="mt-2" answer={answer} form="page" />

      <div className="mt-4 grid items-start gap-4 lg:grid-cols-2">
        <ProfileSection d={d} />
        {actionable ? <AccountActions d={d} answer={answer} /> : null}
        {d.restrictions.length > 0 || actionable ? (
          <RestrictionsSection restrictions={d.restrictions} actionable={actionable} answer={answer} />
        ) : null}
        {d.signals && d.signals.length > 0 ? <SignalsSection signals={d.signals} /> : null}
        <WalletSection d={d} />
        {d.can.grant && !p.deleted ? <AdjustSection d={d} answer={answer} /> : null}
        <LedgerSection d={d} />
        <DrawsSection d={d} />
        <PrizesSection d={d} />
        <ShippingSection d={d} />
        <OrdersSection d={d} />
        <SessionsSection d={d} />
        <NotesSection d={d} answer={answer} />
      </div>
    </div>
  );
}
