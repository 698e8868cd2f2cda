// /admin/shipping/:requestId: one request at the desk. First what the member asked about it (open
// inquiries), then the address (opening it is audited), the cards with set, number and grade, the
// timeline, the moves its status allows (ship asks for the carrier and the tracking number, and asks
// first while an inquiry is open; convert, return and the shop's cancel ask first; the cancel is a quiet
// control apart from the others), and the internal note the member never sees.
import { Link, useActionData } from 'react-router';
import type { Route } from './+types/request';
import { shopRequestContext } from '#server/context';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { shippingRequestAction, shippingRequestLoader, type DeskActionData } from '~/controllers/admin-shipping.server';
import { CardsSection } from './request-cards';
import {
  AddressSection,
  InternalNoteSection,
  OpenInquiriesBanner,
  RequestFacts,
  TimelineSection,
} from './request-facts';
import { MovesSection } from './request-moves';

export const handle = { title: '発送依頼' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return shippingRequestLoader(context.get(shopRequestContext), request, params.requestId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return shippingRequestAction(context.get(shopRequestContext), request, params.requestId);
}

export default function DeskRequestPage({ loaderData }: Route.ComponentProps) {
  const { request: r, carriers, canWrite, reportable, candidates, inquiries, members } = loaderData;
  const answer = useActionData<DeskActionData>();
  const coins = r.items.reduce((sum, i) => sum + i.conversionValue, 0);

  return (
    <div className="max-w-5xl">
      <p className="text-sm">
        <Link to="/admin/shipping" className="underline">
          発送デスクに戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-black">
          発送依頼 <span className="font-mono">{r.id.slice(0, 8)}</span>
        </h1>
        <span className="rounded bg-ink px-2 py-0.5 text-sm font-bold text-white">{r.statusLabel}</span>
        {r.late ? <span className="rounded bg-red-600 px-2 py-0.5 text-sm font-bold text-white">期限超過</span> : null}
      </div>
      <OpenInquiriesBanner inquiries={inquiries} />
      <RequestFacts request={r} members={members} />

      <div className="mt-4">
        <ActionAnswer answer={answer} />
      </div>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <AddressSection address={r.address} />
        {canWrite ? (
          <MovesSection request={r} carriers={carriers} inquiries={inquiries} answer={answer} coins={coins} />
        ) : null}
      </div>

      <CardsSection request={r} reportable={reportable} candidates={candidates} answer={answer} coins={coins} />

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <TimelineSection events={r.events} />
        <InternalNoteSection note={r.internalNote} canWrite={canWrite} />
      </div>
    </div>
  );
}
