// /admin/audit: the audit log viewer. Filters by actor, action, target and JST dates (a GET form, so
// a filtered view is a link to share), newest first, 50 per page; each entry's before and after JSON.
// The operator and a member target are shown as staff see members (number and nickname).
import type { Route } from './+types/audit';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { FilterBar, ListTable, filterFieldClass } from '~/components/admin/ListPage';
import { MemberTag } from '~/components/admin/MemberTag';
import { requireOperator } from '~/controllers/admin.server';
import { memberIdFromFilter, memberTagsFor } from '~/controllers/member-tags.server';
import { auditFilterSchema, auditValueForDisplay, listAuditEntries, type AuditFilter } from '#modules/admin';

export const handle = { title: '監査ログ' };

const PAGE_SIZE = 50;

const jstTime = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const operator = await requireOperator(shop, request, 'audit:read');
  const url = new URL(request.url);
  const parsed = auditFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  const filter: AuditFilter = parsed.success ? parsed.data : {};
  const db = shop.services.db;
  // The actor may be typed as the member number staff read from a screen.
  const actor = filter.actor ? await memberIdFromFilter(db, filter.actor) : undefined;
  const { entries, nextBefore } = await listAuditEntries(db, { ...filter, actor }, PAGE_SIZE);
  const members = await memberTagsFor(
    db,
    operator,
    entries.flatMap((e) => [e.actorId, e.targetType === 'member' ? e.targetId : null]),
  );
  const next = new URLSearchParams(url.searchParams);
  if (nextBefore) next.set('before', String(nextBefore));
  return {
    filter: { ...filter, before: undefined },
    error: parsed.success ? null : (parsed.error.issues[0]?.message ?? '検索条件が正しくありません。'),
    entries: entries.map((e) => ({
      ...e,
      at: jstTime.format(e.at),
      // Staff's free text is kept as a digest (decision 053): shown as 「本文（N文字…）」, never as JSON.
      before: e.before === null ? null : JSON.stringify(auditValueForDisplay(e.before), null, 2),
      after: e.after === null ? null : JSON.stringify(auditValueForDisplay(e.after), null, 2),
    })),
    nextHref: nextBefore ? `/admin/audit?${next.toString()}` : null,
    members,
  };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filter, entries, error, nextHref, members } = loaderData;
  return (
    <div>
      <h1 className="text-2xl font-black">監査ログ</h1>
      <p className="mt-1 text-sm text-muted">
        管理画面とコマンドラインの操作は、変更と同じトランザクションで記録されます。記録は変更・削除できません。
      </p>
      <FilterBar
        submitVariant="primary"
        clearTo="/admin/audit"
        filterError={error}
        fallbackNote={null}
        loadingPath="/admin/audit"
      >
        <label className="text-xs font-bold">
          操作者（メール・ID）
          <input name="actor" defaultValue={filter.actor ?? ''} className={filterFieldClass} />
        </label>
        <label className="text-xs font-bold">
          操作（前方一致）
          <input name="action" defaultValue={filter.action ?? ''} placeholder="staff." className={filterFieldClass} />
        </label>
        <label className="text-xs font-bold">
          対象の種類
          <input
            name="targetType"
            defaultValue={filter.targetType ?? ''}
            placeholder="member"
            className={filterFieldClass}
          />
        </label>
        <label className="text-xs font-bold">
          対象ID
          <input name="targetId" defaultValue={filter.targetId ?? ''} className={filterFieldClass} />
        </label>
        <label className="text-xs font-bold">
          開始日
          <input type="date" name="from" defaultValue={filter.from ?? ''} className={filterFieldClass} />
        </label>
        <label className="text-xs font-bold">
          終了日
          <input type="date" name="to" defaultValue={filter.to ?? ''} className={filterFieldClass} />
        </label>
      </FilterBar>
      <ListTable
        items={entries}
        empty="該当する記録はありません。"
        caption="監査ログ（新しい順）"
        head={['日時（日本時間）', '操作者', '操作', '対象', '権限', '変更内容']}
        cellClass="px-3 py-2"
        minWidth="min-w-[56rem]"
        row={(entry) => (
          <tr key={entry.id} className="border-b border-line align-top last:border-b-0">
            <td className="px-3 py-2 whitespace-nowrap tabular-nums">{entry.at}</td>
            <td className="px-3 py-2">
              {entry.actorId && members[entry.actorId] ? (
                <MemberTag tag={members[entry.actorId]} memberId={entry.actorId} />
              ) : null}
              <span className="block text-xs break-all">{entry.actorLabel}</span>
              {entry.address ? <span className="block text-xs text-muted">{entry.address}</span> : null}
            </td>
            <td className="px-3 py-2 font-mono text-xs">{entry.action}</td>
            <td className="px-3 py-2">
              <span className="text-xs text-muted">{entry.targetType}</span>
              {entry.targetType === 'member' && entry.targetId ? (
                <span className="block text-xs">
                  <MemberTag tag={members[entry.targetId]} memberId={entry.targetId} />
                </span>
              ) : (
                <span className="block font-mono text-xs break-all">{entry.targetId ?? '—'}</span>
              )}
            </td>
            <td className="px-3 py-2 font-mono text-xs">{entry.permission}</td>
            <td className="px-3 py-2">
              {entry.before || entry.after ? (
                <details>
                  <summary className="cursor-pointer text-xs font-bold">前後を表示</summary>
                  <div className="mt-2 grid gap-2 lg:grid-cols-2">
                    <pre className="max-h-60 overflow-auto rounded bg-slate-50 p-2 text-xs" aria-label="変更前">
                      {entry.before ?? '—'}
                    </pre>
                    <pre className="max-h-60 overflow-auto rounded bg-slate-50 p-2 text-xs" aria-label="変更後">
                      {entry.after ?? '—'}
                    </pre>
                  </div>
                  {entry.requestId ? <p className="mt-1 text-xs text-muted">リクエストID: {entry.requestId}</p> : null}
                </details>
              ) : (
                <span className="text-xs text-muted">—</span>
              )}
            </td>
          </tr>
        )}
      />
      {nextHref ? (
        <AppLink to={nextHref} className="mt-4 inline-block text-sm font-bold underline">
          さらに古い記録を表示
        </AppLink>
      ) : null}
    </div>
  );
}
