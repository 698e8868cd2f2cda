// /admin/shipping: the fulfilment desk's queue. Overdue requests first, then by 発送予定日; filters by
// status, member and date, with the count of each status. Ticked requests go to a printed pick list
// and packing slips, the carriers' label CSV, or 発送準備中 in one go; a shipped-CSV import marks a
// whole file shipped or, with a report of every faulty line, nothing.
import { useState } from 'react';
import { Form, Link, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { shippingQueueAction, shippingQueueLoader, type DeskActionData } from '~/controllers/admin-shipping.server';

export const handle = { title: '発送デスク' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return shippingQueueLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return shippingQueueAction(context.get(shopRequestContext), request);
}

function Answer({ answer, form }: { answer: DeskActionData | undefined; form: string }) {
  if (!answer || (answer.form && answer.form !== form) || (!answer.form && form !== 'batch')) return null;
  return answer.error ? (
    <div role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-danger">
      <p className="font-bold">{answer.error}</p>
      {answer.problems?.length ? (
        <table className="mt-2 w-full text-left text-xs">
          <thead>
            <tr>
              <th scope="col" className="w-16 py-1">
                行
              </th>
              <th scope="col" className="py-1">
                内容
              </th>
            </tr>
          </thead>
          <tbody>
            {answer.problems.map((p, i) => (
              <tr key={`${p.line}-${i}`} className="border-t border-red-200 align-top">
                <td className="py-1 font-mono">{p.line ?? '—'}</td>
                <td className="py-1">{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  ) : (
    <p role="status" className="rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
      {answer.ok}
    </p>
  );
}

const STATUS_STYLE: Record<string, string> = {
  requested: 'bg-amber-100 text-amber-900',
  preparing: 'bg-sky-100 text-sky-900',
  shipped: 'bg-indigo-100 text-indigo-900',
  delivered: 'bg-green-100 text-green-900',
  returned: 'bg-red-100 text-red-900',
  canceled: 'bg-slate-200 text-slate-700',
};

const kb = (bytes: number) => `${Math.floor(bytes / 1000).toLocaleString('ja-JP')}KB`;

export default function ShippingQueuePage({ loaderData }: Route.ComponentProps) {
  const { queue, filter, filterError, statuses, canWrite, csv, today, carriers, members } = loaderData;
  const answer = useActionData<DeskActionData>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const submitting = (intent: string) =>
    navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [fileError, setFileError] = useState<string | null>(null);
  const allPicked = queue.items.length > 0 && queue.items.every((i) => picked.has(i.id));
  const toggle = (id: string) =>
    setPicked((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const filterLink = (status: string) => {
    const params = new URLSearchParams();
    if (status) params.set('status', status);
    if (filter.memberId) params.set('memberId', filter.memberId);
    if (filter.from) params.set('from', filter.from);
    if (filter.to) params.set('to', filter.to);
    const query = params.toString();
    return query ? `/admin/shipping?${query}` : '/admin/shipping';
  };
  const pageLink = (page: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value && key !== 'page') params.set(key, String(value));
    params.set('page', String(page));
    return `/admin/shipping?${params.toString()}`;
  };
  const openCount = queue.counts.requested + queue.counts.preparing;

  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-black">発送デスク</h1>
      <p className="mt-1 text-sm text-muted">
        期限超過の依頼が先頭、続いて発送予定日の早い順です。住所を開いた記録は監査ログに残ります。
      </p>

      <nav aria-label="状態で絞り込む" className="mt-4 flex flex-wrap gap-2 text-sm">
        <Link
          to={filterLink('')}
          aria-current={filter.status === '' ? 'page' : undefined}
          className={`rounded-full border px-3 py-1.5 font-bold ${filter.status === '' ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
        >
          すべて（未発送 {openCount.toLocaleString('ja-JP')}）
        </Link>
        {statuses.map((s) => (
          <Link
            key={s.id}
            to={filterLink(s.id)}
            aria-current={filter.status === s.id ? 'page' : undefined}
            className={`rounded-full border px-3 py-1.5 font-bold ${filter.status === s.id ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
          >
            {s.label} {queue.counts[s.id as keyof typeof queue.counts].toLocaleString('ja-JP')}
          </Link>
        ))}
        <span
          className={`rounded-full px-3 py-1.5 font-bold ${queue.counts.overdue > 0 ? 'bg-red-600 text-white' : 'bg-slate-100 text-muted'}`}
        >
          期限超過 {queue.counts.overdue.toLocaleString('ja-JP')}
        </span>
      </nav>

      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
        <label className="text-xs font-bold">
          状態
          <select
            name="status"
            defaultValue={filter.status}
            className="mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm"
          >
            <option value="">すべて</option>
            {statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          会員（会員ID・メールアドレス）
          <input
            name="memberId"
            defaultValue={filter.memberId}
            className="mt-1 block min-h-11 w-56 rounded-lg border border-line px-3 text-sm"
          />
        </label>
        <label className="text-xs font-bold">
          発送予定日（から）
          <input
            type="date"
            name="from"
            defaultValue={filter.from}
            className="mt-1 block min-h-11 rounded-lg border border-line px-3 text-sm"
          />
        </label>
        <label className="text-xs font-bold">
          発送予定日（まで）
          <input
            type="date"
            name="to"
            defaultValue={filter.to}
            className="mt-1 block min-h-11 rounded-lg border border-line px-3 text-sm"
          />
        </label>
        <Button type="submit" variant="secondary" loading={navigation.state === 'loading'}>
          絞り込む
        </Button>
        <Link to="/admin/shipping" className="py-3 text-sm underline">
          条件をクリア
        </Link>
      </Form>
      {filterError ? (
        <p role="alert" className="mt-2 text-sm font-bold text-danger">
          {filterError}（条件なしで表示しています）
        </p>
      ) : null}

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
          <Answer answer={answer} form="batch" />
        </div>
        <div className="flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
          <p className="w-full text-sm font-bold" aria-live="polite">
            {picked.size > 0 ? `${picked.size}件を選択中` : '一覧で依頼を選ぶと、まとめて操作できます。'}
          </p>
          <Button
            type="submit"
            variant="secondary"
            formMethod="get"
            formAction="/admin/shipping/batch"
            formTarget="_blank"
            disabled={picked.size === 0}
          >
            ピッキングリスト・納品書を印刷
          </Button>
          <label className="text-xs font-bold">
            出荷予定日
            <input
              type="date"
              name="shipDate"
              defaultValue={today}
              className="mt-1 block min-h-11 rounded-lg border border-line px-3 text-sm"
            />
          </label>
          <label className="text-xs font-bold">
            品名
            <input
              name="item"
              defaultValue="トレーディングカード"
              maxLength={30}
              className="mt-1 block min-h-11 w-44 rounded-lg border border-line px-3 text-sm"
            />
          </label>
          <Button
            type="submit"
            variant="secondary"
            formMethod="get"
            formAction="/admin/shipping/labels.csv"
            formTarget="_blank"
            disabled={picked.size === 0}
          >
            送り状CSVをダウンロード
          </Button>
          {canWrite ? (
            <Button
              type="submit"
              name="intent"
              value="prepare"
              loading={submitting('prepare')}
              disabled={picked.size === 0}
            >
              発送準備中にする
            </Button>
          ) : null}
        </div>

        {queue.items.length === 0 ? (
          <p className="mt-4 rounded-2xl bg-white p-6 text-center text-sm text-muted">
            条件に合う発送依頼はありません。
          </p>
        ) : (
          <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white">
            <table className="w-full min-w-[760px] text-left text-sm">
              <caption className="sr-only">発送依頼の一覧</caption>
              <thead className="bg-slate-50 text-xs">
                <tr>
                  <th scope="col" className="w-10 p-3">
                    <input
                      type="checkbox"
                      aria-label="このページの依頼をすべて選ぶ"
                      checked={allPicked}
                      onChange={() => setPicked(allPicked ? new Set() : new Set(queue.items.map((i) => i.id)))}
                      className="size-4"
                    />
                  </th>
                  <th scope="col" className="p-3">
                    依頼
                  </th>
                  <th scope="col" className="p-3">
                    状態
                  </th>
                  <th scope="col" className="p-3">
                    発送予定日
                  </th>
                  <th scope="col" className="p-3">
                    枚数
                  </th>
                  <th scope="col" className="p-3">
                    受付
                  </th>
                  <th scope="col" className="p-3">
                    追跡番号
                  </th>
                </tr>
              </thead>
              <tbody>
                {queue.items.map((item) => (
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
                ))}
              </tbody>
            </table>
          </div>
        )}
      </form>

      <nav aria-label="ページ" className="mt-4 flex gap-4 text-sm">
        {queue.page > 1 ? (
          <Link to={pageLink(queue.page - 1)} className="underline">
            前のページ
          </Link>
        ) : null}
        {queue.hasNext ? (
          <Link to={pageLink(queue.page + 1)} className="underline">
            次のページ
          </Link>
        ) : null}
      </nav>

      {canWrite ? (
        <section aria-labelledby="csv-import" className="mt-8 max-w-3xl rounded-2xl border border-line bg-white p-5">
          <h2 id="csv-import" className="text-lg font-bold">
            CSVで発送済みにする
          </h2>
          <p className="mt-1 text-sm text-muted">
            1行目に列名 <code>{csv.columns.join(',')}</code> を書いたCSV（UTF-8またはShift_JIS、{kb(csv.maxBytes)}・
            {csv.maxRows.toLocaleString('ja-JP')}
            行まで）。運送会社は {carriers.map((c) => `${c.name}（${c.id}）`).join('・')}
            。1行でも誤りがあればファイル全体を取り込まず、誤りのある行をすべて表示します。対象は「発送準備中」の依頼のみです。
          </p>
          <Form method="post" encType="multipart/form-data" className="mt-4 grid gap-3">
            <input type="hidden" name="intent" value="importCsv" />
            <Answer answer={answer} form="csv" />
            {fileError ? (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
                {fileError}
              </p>
            ) : null}
            <label className="text-xs font-bold">
              CSVファイル
              <input
                type="file"
                name="file"
                accept=".csv,text/csv"
                required
                className="mt-1 block text-sm"
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  setFileError(
                    file && file.size > csv.maxBytes
                      ? `ファイルが大きすぎます（${kb(csv.maxBytes)}まで）。分けて取り込んでください。`
                      : null,
                  );
                }}
              />
            </label>
            <div>
              <Button type="submit" loading={submitting('importCsv')} disabled={fileError !== null}>
                取り込んで発送済みにする
              </Button>
            </div>
          </Form>
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer font-bold underline">送り状CSVの列</summary>
            <p className="mt-2 text-muted">
              「送り状CSVをダウンロード」の列（UTF-8・BOM付き。B2クラウド・ゆうプリRの「外部データ取込」で取り込みパターンを一度設定してください。列の説明は
              modules/shipping/README.md）:
            </p>
            <p className="mt-1 font-mono text-xs">{csv.labelColumns.join(', ')}</p>
          </details>
        </section>
      ) : null}
    </div>
  );
}
