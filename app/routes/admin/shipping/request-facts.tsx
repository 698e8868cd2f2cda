// One desk request's facts: what the member asked about it (open inquiries, the first thing the desk
// reads), the request itself, the address (opening it is audited), the timeline, and the internal note
// the member never sees.
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/request';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';

type RequestData = Route.ComponentProps['loaderData'];

type OpenInquiries = RequestData['inquiries'];

/** What the member asked about this request and nobody has closed yet: the first thing the desk reads. */
export function OpenInquiriesBanner({ inquiries }: { inquiries: OpenInquiries }) {
  if (inquiries.length === 0) return null;
  return (
    <section
      aria-labelledby="open-inquiries"
      className="mt-3 rounded-2xl border-2 border-amber-500 bg-amber-50 p-4 text-sm"
      data-testid="open-inquiries"
    >
      <h2 id="open-inquiries" className="text-base font-black text-amber-900">
        {`この依頼へのお問い合わせ ${inquiries.length}件（未完了）`}
      </h2>
      <ul className="mt-2 grid gap-1">
        {inquiries.map((q) => (
          <li key={q.id}>
            <Link to={`/admin/inquiries/${q.id}`} className="font-mono font-bold underline">
              {q.reference}
            </Link>
            <span className="ml-2 rounded bg-white px-1.5 py-0.5 text-xs font-bold">{q.statusLabel}</span>
            {q.subject ? <span className="ml-2 break-all">{q.subject}</span> : null}
            <span className="ml-2 text-xs text-muted">{formatStaffDateTime(q.createdAt)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-amber-900">発送する前に内容を確認してください。</p>
    </section>
  );
}

/**
 * @example <RequestFacts request={r} members={members} />
 */
export function RequestFacts({ request: r, members }: Pick<RequestData, 'request' | 'members'>) {
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      <dt className="font-bold">依頼ID</dt>
      <dd className="font-mono break-all">{r.id}</dd>
      <dt className="font-bold">会員</dt>
      <dd className="break-all">
        <MemberTag tag={members[r.memberId]} memberId={r.memberId} />
        <Link to={`/admin/shipping?memberId=${encodeURIComponent(r.memberId)}`} className="ml-3 text-xs underline">
          この会員の発送依頼
        </Link>
      </dd>
      <dt className="font-bold">受付</dt>
      <dd>{formatStaffDateTime(r.requestedAt)}</dd>
      <dt className="font-bold">発送予定日</dt>
      <dd>{r.promisedLabel}</dd>
      <dt className="font-bold">手数料</dt>
      <dd>{r.feeCoins.toLocaleString('ja-JP')}コイン</dd>
      {r.trackingNumber ? (
        <>
          <dt className="font-bold">追跡番号</dt>
          <dd>
            {r.carrierName} {r.trackingNumber}{' '}
            {r.trackingUrl ? (
              <a href={r.trackingUrl} target="_blank" rel="noreferrer" className="underline">
                追跡ページ
              </a>
            ) : null}
          </dd>
        </>
      ) : null}
      {r.compensatedAt ? (
        <>
          <dt className="font-bold">遅延補償</dt>
          <dd>{r.compensationCoins.toLocaleString('ja-JP')}コイン（お支払い済み）</dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * @example <AddressSection address={r.address} />
 */
export function AddressSection({ address }: { address: RequestData['request']['address'] }) {
  return (
    <section aria-labelledby="address" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="address" className="text-base font-bold">
        お届け先
      </h2>
      <p className="mt-2 text-sm leading-relaxed">
        〒{address.postalCode.slice(0, 3)}-{address.postalCode.slice(3)}
        <br />
        {address.prefecture}
        {address.city}
        {address.town}
        {address.building ? (
          <>
            <br />
            {address.building}
          </>
        ) : null}
        <br />
        <span className="font-bold">{address.name} 様</span>（{address.nameKana}）
        <br />
        電話 {address.phone}
      </p>
      <p className="mt-2 text-xs text-muted">この住所を開いたことは監査ログに記録されています。</p>
    </section>
  );
}

/**
 * @example <TimelineSection events={r.events} />
 */
export function TimelineSection({ events }: { events: RequestData['request']['events'] }) {
  return (
    <section aria-labelledby="timeline" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="timeline" className="text-base font-bold">
        これまでの流れ
      </h2>
      <ol className="mt-3 flex flex-col gap-3 border-l-2 border-line pl-4">
        {events.map((e, index) => (
          <li key={`${e.at}-${index}`} className="text-sm">
            <span className="block font-bold">
              {e.statusLabel}
              <span className="ml-2 text-xs font-normal text-muted">
                {e.actor === 'member' ? '会員' : e.actor === 'staff' ? 'スタッフ' : '自動'}
              </span>
            </span>
            <span className="block text-xs text-muted">{formatStaffDateTime(e.at)}</span>
            {e.note ? <span className="block text-xs">{e.note}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * @example <InternalNoteSection note={r.internalNote} canWrite={canWrite} />
 */
export function InternalNoteSection({ note, canWrite }: { note: string | null; canWrite: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'note';
  return (
    <section aria-labelledby="note" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="note" className="text-base font-bold">
        社内メモ
      </h2>
      <p className="mt-1 text-xs text-muted">会員には表示されません。</p>
      {canWrite ? (
        <Form method="post" className="mt-2 grid gap-2">
          <input type="hidden" name="intent" value="note" />
          <label htmlFor="internal-note" className="sr-only">
            社内メモ
          </label>
          <textarea
            id="internal-note"
            name="note"
            rows={4}
            maxLength={2000}
            defaultValue={note ?? ''}
            key={note ?? ''}
            className="w-full rounded-lg border border-line p-2 text-sm"
          />
          <div>
            <Button type="submit" variant="secondary" loading={busy}>
              メモを保存
            </Button>
          </div>
        </Form>
      ) : (
        <p className="mt-2 text-sm whitespace-pre-wrap">{note ?? '（なし）'}</p>
      )}
    </section>
  );
}
