// /admin/shipping: the fulfilment desk's queue. Overdue requests first, then by 発送予定日; filters by
// status, member and date, with the count of each status. Ticked requests go to a printed pick list
// and packing slips, the carriers' label CSV, or 発送準備中 in one go; a shipped-CSV import marks a
// whole file shipped or, with a report of every faulty line, nothing.
import { useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { PageLinks, pageHref } from '~/components/admin/ListPage';
import { shippingQueueAction, shippingQueueLoader, type DeskActionData } from '~/controllers/admin-shipping.server';
import { QueueFilterBar, QueueStatusNav } from './queue-filters';
import { QueueBatchForm } from './queue-batch';
import { CsvImport } from './queue-csv-import';

export const handle = { title: '発送デスク' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return shippingQueueLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return shippingQueueAction(context.get(shopRequestContext), request);
}

export default function ShippingQueuePage({ loaderData }: Route.ComponentProps) {
  const { queue, filter, filterError, statuses, canWrite, csv, today, carriers, members } = loaderData;
  const answer = useActionData<DeskActionData>();
  const navigation = useNavigation();
  const submitting = (intent: string) =>
    navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;

  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-black">発送デスク</h1>
      <p className="mt-1 text-sm text-muted">
        期限超過の依頼が先頭、続いて発送予定日の早い順です。住所を開いた記録は監査ログに残ります。
      </p>
      <QueueStatusNav filter={filter} statuses={statuses} counts={queue.counts} />
      <QueueFilterBar filter={filter} filterError={filterError} statuses={statuses} />
      <QueueBatchForm
        items={queue.items}
        members={members}
        today={today}
        canWrite={canWrite}
        answer={answer}
        preparing={submitting('prepare')}
      />
      <PageLinks page={queue.page} hasNext={queue.hasNext} href={(page) => pageHref('/admin/shipping', filter, page)} />
      {canWrite ? (
        <CsvImport csv={csv} carriers={carriers} answer={answer} importing={submitting('importCsv')} />
      ) : null}
    </div>
  );
}
