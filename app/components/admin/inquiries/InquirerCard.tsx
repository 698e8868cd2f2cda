// Who asked: the address, the member, when, the related order, draw or shipping request, and their other inquiries.
import { Link } from 'react-router';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { InquiryPage } from './answer';

export function InquirerCard({
  inquiry: q,
  members,
  earlier,
}: {
  inquiry: InquiryPage['inquiry'];
  members: InquiryPage['members'];
  earlier: InquiryPage['earlier'];
}) {
  return (
    <section aria-labelledby="inquirer" className="rounded-2xl border border-line bg-white p-4 text-sm">
      <h2 id="inquirer" className="text-base font-bold">
        お客様
      </h2>
      <dl className="mt-2 grid gap-1">
        <dt className="text-xs font-bold text-muted">メールアドレス</dt>
        <dd className="break-all">{q.email}</dd>
        <dt className="text-xs font-bold text-muted">会員</dt>
        <dd className="break-all">
          {q.memberId ? <MemberTag tag={members[q.memberId]} memberId={q.memberId} /> : 'ゲスト（未ログイン）'}
        </dd>
        <dt className="text-xs font-bold text-muted">受付</dt>
        <dd>{formatStaffDateTime(q.createdAt)}</dd>
        {q.related ? (
          <>
            <dt className="text-xs font-bold text-muted">関連するご利用</dt>
            <dd data-testid="inquiry-related">
              {q.related.label ? (
                <>
                  {q.related.kindLabel}: {q.related.label}
                  {q.relatedLink ? (
                    <Link to={q.relatedLink} className="ml-1 underline">
                      発送デスクで開く
                    </Link>
                  ) : null}
                  <span className="block font-mono text-xs text-muted">{q.related.id}</span>
                </>
              ) : (
                <span className="text-muted">見つかりません（{q.related.id}）</span>
              )}
            </dd>
          </>
        ) : null}
      </dl>
      {earlier.length ? (
        <>
          <h3 className="mt-3 text-xs font-bold text-muted">この会員の他のお問い合わせ</h3>
          <ul className="mt-1 grid gap-1 text-xs">
            {earlier.map((e) => (
              <li key={e.id}>
                <Link to={`/admin/inquiries/${e.id}`} className="font-mono underline">
                  {e.reference}
                </Link>{' '}
                {e.statusLabel}・{e.subject}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
