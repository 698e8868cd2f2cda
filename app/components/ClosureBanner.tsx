// The closure's notice at the top of every page once it is announced (decision 085): when sales stop (or that they
// have) and the refund deadline (the lines come from the server), with the links to the 公告 and the application.
import { Link, useLocation } from 'react-router';
import type { RootData } from '~/lib/root-data';

const LINK = 'font-bold underline underline-offset-2';

export function ClosureBanner({ closure }: { closure: NonNullable<RootData['closure']> }) {
  // A restricted member's statement page (decision 085) carries the application itself: they cannot sign in to
  // マイページ, so the link goes to the form on the page.
  const onStatement = useLocation().pathname.startsWith('/standing/');
  return (
    <div
      role="region"
      aria-label="閉店のお知らせ"
      className="relative z-[2000] border-b border-red-300 bg-red-50 px-4 py-2.5 text-sm text-red-950"
      data-testid="closure-banner"
    >
      <div className="mx-auto max-w-5xl">
        <p className="font-bold">{closure.headline}</p>
        <p className="mt-0.5">{closure.detail}</p>
        <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/closure" className={LINK}>
            公告を読む
          </Link>
          <Link to={onStatement ? '#standing-refund' : '/mypage/refund'} className={LINK}>
            払戻しを申し込む
          </Link>
        </p>
      </div>
    </div>
  );
}
