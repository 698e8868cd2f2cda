// /admin/inquiries/:inquiryId: one inquiry at the desk. The thread (the inquirer's messages and the
// staff's answers, with the attached images as thumbnails), the related order, draw or shipping request,
// the answer form with templates (inserted where the cursor is; without scripts, through ?template=),
// status and assignee, and the internal note the inquirer never sees. Opening it is audited.
import { Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/inquiry';
import { shopRequestContext } from '#server/context';
import { HandlingSection, InternalNote } from '~/components/admin/inquiries/InquiryHandling';
import { InquirerCard } from '~/components/admin/inquiries/InquirerCard';
import { InquiryThread } from '~/components/admin/inquiries/InquiryThread';
import { ReplyForm } from '~/components/admin/inquiries/ReplyForm';
import { inquiryAction, inquiryLoader, type InquiryActionData } from '~/controllers/admin-inquiries.server';

export const handle = { title: 'お問い合わせ' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return inquiryLoader(context.get(shopRequestContext), request, params.inquiryId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return inquiryAction(context.get(shopRequestContext), request, params.inquiryId);
}

export default function InquiryPage({ loaderData }: Route.ComponentProps) {
  const { inquiry: q, templates, statuses, staff, limits, canWrite, earlier, members } = loaderData;
  const answer = useActionData<InquiryActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const draft = answer?.form === 'reply' && answer.error ? (answer.draft ?? '') : loaderData.draft;

  return (
    <div className="max-w-6xl">
      <p className="text-sm">
        <Link to="/admin/inquiries" className="underline">
          お問い合わせ一覧に戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-black">
          <span className="font-mono">{q.reference}</span>
        </h1>
        <span className="rounded bg-ink px-2 py-0.5 text-sm font-bold text-white" data-testid="inquiry-status">
          {q.statusLabel}
        </span>
        <span className="text-sm text-muted">{q.categoryLabel}</span>
      </div>
      <p className="mt-1 text-lg font-bold">{q.subject}</p>

      <div className="mt-4 grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex min-w-0 flex-col gap-4">
          <InquiryThread messages={q.messages} />

          {canWrite ? (
            <ReplyForm
              email={q.email}
              templates={templates}
              statuses={statuses}
              limits={limits}
              draft={draft}
              answer={answer}
              busy={busy}
            />
          ) : null}
        </div>

        <aside className="flex flex-col gap-4">
          <InquirerCard inquiry={q} members={members} earlier={earlier} />

          <HandlingSection
            inquiry={q}
            statuses={statuses}
            staff={staff}
            canWrite={canWrite}
            answer={answer}
            busy={busy}
          />

          <InternalNote inquiry={q} limits={limits} canWrite={canWrite} answer={answer} busy={busy} />
        </aside>
      </div>
    </div>
  );
}
