// A page whose feature arrives in a later release: a real heading and an honest empty state.
// Pages outside the members' guard (mypage) ask visitors to sign in instead.
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageHeading, EmptyState } from './PageFrame';
import { ButtonLink } from './Button';
import { useRootData } from '~/lib/root-data';
import { signInPathFor } from '#modules/kernel/navigation';

export function FeaturePage(props: {
  title: string;
  lead?: string;
  emptyTitle: string;
  children?: ReactNode;
  action?: ReactNode;
  membersOnly?: boolean;
}) {
  const root = useRootData();
  const location = useLocation();
  if (props.membersOnly && !root?.member) {
    return (
      <>
        <PageHeading title={props.title} />
        <EmptyState
          title="ログインが必要です"
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
      </>
    );
  }
  return (
    <>
      <PageHeading title={props.title} lead={props.lead} />
      <EmptyState title={props.emptyTitle} action={props.action}>
        {props.children}
      </EmptyState>
    </>
  );
}
