// The note a visitor sees after opening a friend's invitation link (/r?code=…, decision 038): on the home
// page with a way to the sign-up, and on the sign-up page; an unknown code is said so plainly.
import { Link } from 'react-router';
import { formatCoins } from '~/lib/numbers';

export interface InvitationNoticeData {
  code: string;
  valid: boolean;
  rewardCoins: number;
}

export function InvitationNotice({ notice, withLink = false }: { notice: InvitationNoticeData; withLink?: boolean }) {
  if (!notice.valid)
    return (
      <p role="alert" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900">
        {`招待コード「${notice.code}」は見つかりませんでした。招待してくれた方にリンクをもう一度ご確認ください（招待なしでも登録できます）。`}
      </p>
    );
  return (
    <section
      aria-label="友達招待"
      className="rounded-xl bg-primary-soft px-4 py-3 text-sm"
      data-testid="invitation-notice"
    >
      <p className="font-bold">{`お友達からの招待です（招待コード ${notice.code}）`}</p>
      <p className="mt-1">
        このまま会員登録すると招待が適用されます。
        {notice.rewardCoins > 0
          ? `電話番号認証と初回購入で、あなたとお友達の両方に${formatCoins(notice.rewardCoins)}無償コインをプレゼント。`
          : ''}
      </p>
      {withLink ? (
        <Link to="/auth/sign_up" className="mt-2 inline-block font-bold text-primary-dark underline">
          新規会員登録へ進む
        </Link>
      ) : null}
    </section>
  );
}
