// /myinbox/bonus/logs: the member's login bonus history (newest day first, 20 a page), today's card, and
// the mail attachments they claimed (newest first, decision 034); its action is the login bonus claim
// button's (decision 033), posted from here and from /mypage.
import type { Route } from './+types/bonus-logs';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { InboxTabs } from '~/components/InboxTabs';
import { AppLink } from '~/components/AppLink';
import { LoginBonusCard } from '~/components/LoginBonusCard';
import { loginBonusAction, loginBonusCardOf, loginBonusLogOf } from '~/controllers/login-bonus.server';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { claimedAttachmentsOf } from '~/controllers/mailbox.server';

export const handle = { title: '受け取り履歴' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  // The members-only guard (app/guards) sends visitors to sign in before this runs.
  if (!shop.member) return { signedIn: false as const };
  const member = shop.member;
  const url = new URL(request.url);
  const [bonus, log, claims] = await Promise.all([
    loginBonusCardOf(shop),
    loginBonusLogOf({ ...shop, member }, url),
    claimedAttachmentsOf({ ...shop, member }, url),
  ]);
  return { signedIn: true as const, bonus, log, claims };
}

export async function action({ request, context }: Route.ActionArgs) {
  return loginBonusAction(context.get(shopRequestContext), request);
}

/** '2026-11-24' → '2026年11月24日' (the day is already Japan time). */
const dayText = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return `${year}年${month}月${date}日`;
};

export default function BonusLogs({ loaderData }: Route.ComponentProps) {
  const log = loaderData.signedIn ? loaderData.log : null;
  const claims = loaderData.signedIn ? loaderData.claims : null;
  return (
    <>
      <PageHeading title="メールボックス" />
      <InboxTabs />
      {loaderData.signedIn && loaderData.bonus && <LoginBonusCard bonus={loaderData.bonus} />}
      <h2 className="mb-2 text-base font-bold">プレゼントの受け取り履歴</h2>
      {!claims || claims.items.length === 0 ? (
        <p className="mb-6 rounded-2xl bg-white px-4 py-3 text-sm text-muted shadow-sm">
          {claims?.paged
            ? 'これより前の受け取りはありません。'
            : 'メールのプレゼントを受け取ると、ここに表示されます。'}
        </p>
      ) : (
        <div className="mb-6">
          <ul className="divide-y divide-line rounded-2xl bg-white shadow-sm" aria-label="プレゼントの受け取り履歴">
            {claims.items.map((item) => (
              <li key={item.mailId} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="min-w-0">
                  <AppLink to={`/myinbox/mail/${item.mailId}`} className="block truncate font-bold">
                    {item.subject}
                  </AppLink>
                  <span className="block text-xs text-muted">
                    <time dateTime={item.claimedAt}>{formatMemberDateTime(item.claimedAt)}</time> に受け取り
                  </span>
                </span>
                <span className="font-bold whitespace-nowrap">+{formatCoins(item.coins)}コイン</span>
              </li>
            ))}
          </ul>
          <nav aria-label="プレゼントの履歴のページ" className="mt-2 flex justify-between text-sm">
            {claims.paged ? <AppLink to="/myinbox/bonus/logs">新しい受け取りへ</AppLink> : <span />}
            {claims.nextBefore && (
              <AppLink to={`/myinbox/bonus/logs?mails_before=${encodeURIComponent(claims.nextBefore)}`}>
                さらに前の受け取り
              </AppLink>
            )}
          </nav>
        </div>
      )}
      <h2 className="mb-2 text-base font-bold">ログインボーナスの受け取り履歴</h2>
      {!log || log.items.length === 0 ? (
        <EmptyState title="受け取り履歴はまだありません">
          {log?.paged ? 'これより前の履歴はありません。' : 'ログインボーナスを受け取ると、ここに表示されます。'}
        </EmptyState>
      ) : (
        <>
          <ul className="divide-y divide-line rounded-2xl bg-white shadow-sm" aria-label="受け取り履歴">
            {log.items.map((item) => (
              <li key={item.day} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <span>
                  <span className="block font-bold">{dayText(item.day)}</span>
                  <span className="block text-xs text-muted">ログインボーナス・連続{item.streakDay}日目</span>
                </span>
                <span className="font-bold whitespace-nowrap">+{formatCoins(item.coins)}コイン</span>
              </li>
            ))}
          </ul>
          <nav aria-label="ページ" className="mt-4 flex justify-between text-sm">
            {log.paged ? <AppLink to="/myinbox/bonus/logs">新しい履歴へ</AppLink> : <span />}
            {log.nextBefore && <AppLink to={`/myinbox/bonus/logs?before=${log.nextBefore}`}>さらに前の履歴</AppLink>}
          </nav>
        </>
      )}
    </>
  );
}
