// The one answer of a members' page to a visitor where no route guard sends them away (/mypage and its
// pages, decision 002): the page's own title, 「ログインが必要です」, and ログイン (back to this page) or 新規登録.
import { useLocation } from 'react-router';
import { PageHeading, EmptyState } from './PageFrame';
import { ButtonLink } from './Button';
import { signInPathFor } from '#modules/kernel/navigation';

export const MEMBERS_ONLY_TITLE = 'ログインが必要です';

export function MembersOnlyPrompt({ title }: { title: string }) {
  const location = useLocation();
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4" data-testid="members-only">
      <PageHeading title={title} />
      <EmptyState
        title={MEMBERS_ONLY_TITLE}
        action={
          <div className="flex gap-2">
            <ButtonLink to={signInPathFor(location.pathname + location.search)}>ログイン</ButtonLink>
            <ButtonLink to="/auth/sign_up" variant="secondary">
              新規登録
            </ButtonLink>
          </div>
        }
      >
        このページを見るにはログインしてください。
      </EmptyState>
    </div>
  );
}
