// A member as staff see them, on every admin list and page: the member number the member reads on
// マイページ (会員ID) and the nickname, linked to the member's admin page when the operator may open it.
import { Link } from 'react-router';
import type { StaffMemberTag } from '~/controllers/member-tags.server';

/**
 * `tag` comes from the page's loader (memberTagsFor); without one (an id the shop no longer knows) the
 * internal id is shown as the last resort.
 * @example <MemberTag tag={members[row.memberId]} memberId={row.memberId} />
 */
export function MemberTag({
  tag,
  memberId,
  className = '',
}: {
  tag: Pick<StaffMemberTag, 'code' | 'nickname' | 'deleted' | 'href'> | undefined;
  memberId: string;
  className?: string;
}) {
  if (!tag)
    return (
      <span className={`font-mono text-xs break-all ${className}`} data-member-tag="unknown">
        {memberId}
      </span>
    );
  const body = (
    <>
      <span className="font-mono tracking-wider">{tag.code}</span> <span className="break-all">{tag.nickname}</span>
      {tag.deleted ? <span className="ml-1 text-xs text-muted">（退会済み）</span> : null}
    </>
  );
  return tag.href ? (
    <Link to={tag.href} className={`underline ${className}`} data-member-tag={tag.code} title="会員ページを開く">
      {body}
    </Link>
  ) : (
    <span className={className} data-member-tag={tag.code}>
      {body}
    </span>
  );
}
