// The desk queue's batch form: ticked requests go to a printed pick list and packing slips, the
// carriers' label CSV (both open in a new tab by the browser itself), or 発送準備中 in one go; the
// queue's table is inside it, each row with its tick box.
import { useState } from 'react';
import { Link, useSubmit } from 'react-router';
import type { Route } from './+types/index';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { ListTable, filterFieldClass } from '~/components/admin/ListPage';
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { DeskActionData } from '~/controllers/admin-shipping.server';
import { DeskAnswer } from './desk-answer';

type QueueData = Route.ComponentProps['loaderData'];

const STATUS_STYLE: Record<string, string> = {
  requested: 'bg-amber-100 text-amber-900',
  preparing: 'bg-sky-100 text-sky-900',
  shipped: 'bg-indigo-100 text-indigo-900',
  delivered: 'bg-green-100 text-green-900',
  returned: 'bg-red-100 text-red-900',
  canceled: 'bg-slate-200 text-slate-700',
};

/** What the ticked requests can go to: the pick list, the label CSV (with its date and item), 発送準備中. */
function BatchControls({
  picked,
  today,
  canWrite,
  preparing,
}: {
  picked: number;
  today: string;
  canWrite: boolean;
  preparing: boolean;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
      <p className="w-full text-sm font-bold" aria-live="polite">
        {picked > 0 ? `${picked}件を選択中` : '一覧で依頼を選ぶと、まとめて操作できます。'}
      </p>
      <Button
        type="submit"
        variant="secondary"
        formMethod="get"
        formAction="/admin/shipping/batch"
        formTarget="_blank"
        disabled={picked === 0}
      >
        ピッキングリスト・納品書を印刷
      </Button>
      <label className="text-xs font-bold">
        出荷予定日
        <input type="date" name="shipDate" defaultValue={today} className={filterFieldClass} />
      </label>
      <label className="text-xs font-bold">
        品名
        <input name="item" defaultValue="トレーディングカード" maxLength={30} className={`${filterFieldClass} w-44`} />
      </label>
      <Button
        type="submit"
        variant="secondary"
        formMethod="get"
        formAction="/admin/shipping/labels.csv"
        formTarget="_blank"
        disabled={picked === 0}
      >
        送り状CSVをダウンロード
      </Button>
      {canWrite ? (
        <Button type="submit" name="intent" value="prepare" loading={preparing} disabled={picked === 0}>
          発送準備中にする
        </Button>
      ) : null}
    </div>
  );
}

/**
 * @example <QueueBatchForm items={queue.items} members={members} today={today} canWrite={canWrite} answer={answer} preparing={submitting('prepare')} />
 */
export function QueueBatchForm({
  items,
  members,
  today,
  canWrite,
  answer,
  preparing,
}: Pick<QueueData, 'members' | 'today' | 'canWrite'> & {
  items: QueueData['queue']['items'];
  answer: DeskActionData | undefined;
  preparing: boolean;
}) {
  const submit = useSubmit();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const allPicked = items.length > 0 && items.every((i) => picked.has(i.id));
  const toggle = (id: string) =>
    setPicked((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  // An answer without a form (an unreadable form, an unknown intent) belongs to this form.
  const batchAnswer = answer && !answer.form ? { ...answer, form: 'batch' } : answer;
  return (
    <form
      method="post"
      className="mt-6"
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        // The pick list and the label CSV open in a new tab by the browser itself.
        if (submitter?.getAttribute('formtarget')) return;
        event.preventDefault();
        void submit(submitter ?? event.currentTarget, { method: 'post' });
      }}
    >
      <div className="mb-3">
        <DeskAnswer answer={batchAnswer} form="batch" />
      </div>
      <BatchControls picked={picked.size} today={today} canWrite={canWrite} preparing={preparing} />

      <ListTable
        items={items}
        empty="条件に合う発送依頼はありません。"
        caption="発送依頼の一覧"
        minWidth="min-w-[760px]"
        head={[
          [
            <input
              key="all"
              type="checkbox"
              aria-label="このページの依頼をすべて選ぶ"
              checked={allPicked}
              onChange={() => setPicked(allPicked ? new Set() : new Set(items.map((i) => i.id)))}
              className="size-4"
            />,
            'w-10',
          ],
          '依頼',
          '状態',
          '発送予定日',
          '枚数',
          '受付',
          '追跡番号',
        ]}
        row={(item) => (
          <tr key={item.id} className={`border-t border-line ${item.overdue ? 'bg-red-50' : ''}`}>
            <td className="p-3">
              <input
                type="checkbox"
                name="id"
                value={item.id}
                checked={picked.has(item.id)}
                onChange={() => toggle(item.id)}
                aria-label={`依頼 ${item.id.slice(0, 8)} を選ぶ`}
                className="size-4"
              />
            </td>
            <td className="p-3">
              <Link to={`/admin/shipping/${item.id}`} className="font-mono font-bold underline">
                {item.id.slice(0, 8)}
              </Link>
              <span className="block max-w-56 text-xs">
                会員 <MemberTag tag={members[item.memberId]} memberId={item.memberId} />
              </span>
              {item.internalNote ? (
                <span className="mt-1 block max-w-48 truncate text-xs" title={item.internalNote}>
                  メモ: {item.internalNote}
                </span>
              ) : null}
            </td>
            <td className="p-3">
              <span className={`rounded px-2 py-0.5 text-xs font-bold ${STATUS_STYLE[item.status] ?? ''}`}>
                {item.statusLabel}
              </span>
            </td>
            <td className="p-3">
              {item.promisedLabel}
              {item.overdue ? <span className="ml-1 text-xs font-bold text-danger">期限超過</span> : null}
            </td>
            <td className="p-3">{item.itemCount}枚</td>
            <td className="p-3 text-xs">{formatStaffDateTime(item.requestedAt)}</td>
            <td className="p-3 text-xs">
              {item.trackingNumber ? `${item.carrierName ?? ''} ${item.trackingNumber}` : '—'}
            </td>
          </tr>
        )}
      />
    </form>
  );
}
