// /myinbox/idvs (あなたへ: personal mails) and /myinbox/alls (お知らせ: broadcasts), newest first, 20 a page.
import { useFetcher, useMatches } from 'react-router';
import type { Route } from './+types/list';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { InboxTabs } from '~/components/InboxTabs';
import { AppLink } from '~/components/AppLink';
import { MailList } from '~/components/MailList';
import { Button, useOneSubmission } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import {
  claimableSummaryOf,
  emailOptInOf,
  mailListOf,
  mailSettingAction,
  type MailClaimAllActionData,
  type MailSettingActionData,
} from '~/controllers/mailbox.server';

export const handle = { title: 'メールボックス' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  // The members-only guard (app/guards) sends visitors to sign in before this runs.
  if (!shop.member) return { list: null, emailOptIn: false, claimable: null };
  const url = new URL(request.url);
  const box = url.pathname.startsWith('/myinbox/alls') ? 'broadcast' : 'personal';
  const member = { ...shop, member: shop.member };
  const [list, emailOptIn, claimable] = await Promise.all([
    mailListOf(member, box, url),
    emailOptInOf(member),
    claimableSummaryOf(member),
  ]);
  return { list, emailOptIn, claimable };
}

export async function action({ request, context }: Route.ActionArgs) {
  return mailSettingAction(context.get(shopRequestContext), request);
}

/**
 * 「すべて受け取る」: every present waiting in the mailbox in one tap (it only gives: no confirmation), with
 * the total received announced; the list reloads after, so each row shows 受取済.
 */
function ClaimAllBar({ claimable }: { claimable: { count: number; coins: number } }) {
  const fetcher = useFetcher<MailClaimAllActionData>();
  const answer = fetcher.data;
  const busy = fetcher.state !== 'idle';
  const onSubmit = useOneSubmission(fetcher.state, answer);
  if (claimable.count === 0 && !answer) return null;
  return (
    <section
      aria-label="プレゼントの一括受け取り"
      className="mb-3 rounded-2xl border border-amber-200 bg-amber-50 p-4"
      data-testid="claim-all"
    >
      {claimable.count > 0 ? (
        <fetcher.Form method="post" onSubmit={onSubmit} className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="claim-all" />
          <p className="min-w-0 flex-1 text-sm">
            受け取れるプレゼント <b>{claimable.count}件</b>
            <span className="block text-base font-black text-amber-900">
              合計 {formatCoins(claimable.coins)}コイン（無償コイン）
            </span>
          </p>
          <Button type="submit" loading={busy} disabled={busy} data-testid="claim-all-button">
            すべて受け取る
          </Button>
        </fetcher.Form>
      ) : null}
      {answer ? (
        <p
          role={answer.ok ? 'status' : 'alert'}
          className={`text-sm font-bold ${claimable.count > 0 ? 'mt-2' : ''} ${answer.ok ? 'text-emerald-800' : 'text-red-700'}`}
          data-testid="claim-all-answer"
        >
          {answer.message}
        </p>
      ) : null}
    </section>
  );
}

/** 「メールでも受け取る」: system mails (deadlines, purchases…) also by email; off unless chosen. */
function EmailSetting({ emailOptIn }: { emailOptIn: boolean }) {
  const fetcher = useFetcher<MailSettingActionData>();
  const answer = fetcher.data;
  return (
    <fetcher.Form method="post" className="mt-6 rounded-2xl bg-white p-4 text-sm shadow-sm">
      <input type="hidden" name="intent" value="email-notice" />
      <label className="flex items-start gap-2">
        <input type="checkbox" name="email" defaultChecked={emailOptIn} className="mt-0.5 size-5" />
        <span>
          <span className="block font-bold">お知らせをメールでも受け取る</span>
          <span className="block text-xs text-muted">
            選択期限のお知らせなどが届いたとき、登録のメールアドレスにもお知らせします（発送のご案内はこの設定に関わらずメールでお送りします）。
          </span>
        </span>
      </label>
      <Button type="submit" variant="secondary" className="mt-3" loading={fetcher.state !== 'idle'}>
        設定を保存
      </Button>
      {answer ? (
        <p role={answer.ok ? 'status' : 'alert'} className="mt-2 text-sm">
          {answer.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

export default function InboxList({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  const broadcasts = matches.some((m) => m.id === 'myinbox-alls');
  const path = broadcasts ? '/myinbox/alls' : '/myinbox/idvs';
  const list = loaderData.list;
  return (
    <>
      <PageHeading title="メールボックス" />
      <InboxTabs />
      {loaderData.claimable ? <ClaimAllBar claimable={loaderData.claimable} /> : null}
      {!list || list.items.length === 0 ? (
        <EmptyState title={broadcasts ? 'お知らせはまだありません' : 'あなたへのメールはまだありません'}>
          {list?.paged
            ? 'これより前のメールはありません。'
            : broadcasts
              ? '運営からのお知らせがここに届きます。'
              : 'プレゼントやお知らせが届くと、ここに表示されます。'}
        </EmptyState>
      ) : (
        <>
          <MailList items={list.items} label={broadcasts ? 'お知らせ' : 'あなたへのメール'} />
          <nav aria-label="ページ" className="mt-4 flex justify-between text-sm">
            {list.paged ? <AppLink to={path}>新しいメールへ</AppLink> : <span />}
            {list.nextBefore && <AppLink to={`${path}?before=${list.nextBefore}`}>さらに前のメール</AppLink>}
          </nav>
        </>
      )}
      {list && !broadcasts ? <EmailSetting emailOptIn={loaderData.emailOptIn} /> : null}
    </>
  );
}
