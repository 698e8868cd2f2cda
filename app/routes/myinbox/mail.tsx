// /myinbox/mail/{mailId}: one mail, marked read when opened; its attachment's claim is one tap (it gives,
// it spends nothing). Another member's, an unknown or a malformed id answers the shop's 404.
import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import type { Route } from './+types/mail';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { Button, useOneSubmission } from '~/components/Button';
import { RichText } from '~/components/content';
import { AttachmentBadge } from '~/components/MailList';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { setUnreadMails } from '~/lib/unread-mails';
import { mailClaimAction, mailPageOf, type MailClaimActionData } from '~/controllers/mailbox.server';
import { notFound } from '~/lib/not-found';

export const handle = {
  title: (data: { mail?: { subject: string } } | undefined) => data?.mail?.subject ?? 'メール',
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const pathname = new URL(request.url).pathname;
  // The members-only guard sends visitors to sign in before this runs.
  if (!shop.member) throw notFound(pathname);
  return mailPageOf({ ...shop, member: shop.member }, params.mailId, pathname);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return mailClaimAction(context.get(shopRequestContext), request, params.mailId);
}

export default function Mail({ loaderData }: Route.ComponentProps) {
  const { mail, unread } = loaderData;
  const fetcher = useFetcher<MailClaimActionData>();
  const answer = fetcher.data;
  const onSubmit = useOneSubmission(fetcher.state, answer);
  // Opening marked it read: the header's bell follows at once.
  useEffect(() => setUnreadMails(unread), [unread]);
  const attachment = mail.attachment;
  const claimable = attachment && !attachment.claimed && !attachment.expired;
  const back = mail.audience === 'broadcast' ? '/myinbox/alls' : '/myinbox/idvs';
  return (
    <article className="flex flex-col gap-4">
      <AppLink to={back} className="text-sm text-muted underline">
        ← メールボックスへ戻る
      </AppLink>
      <header>
        <h1 className="text-xl font-black">{mail.subject}</h1>
        <p className="mt-1 text-xs text-muted">
          <time dateTime={mail.sendAt}>{formatMemberDateTime(mail.sendAt)}</time>
        </p>
      </header>
      <div className="rounded-2xl bg-white p-4 shadow-sm">
        <RichText value={mail.body} />
      </div>
      {attachment ? (
        <section aria-labelledby="mail-gift" className="rounded-2xl bg-white p-4 shadow-sm">
          <h2 id="mail-gift" className="text-base font-bold">
            プレゼント
          </h2>
          <AttachmentBadge attachment={attachment} />
          {answer ? (
            <p
              role={answer.ok ? 'status' : 'alert'}
              className={`mt-3 text-sm font-bold ${answer.ok ? 'text-emerald-700' : 'text-red-700'}`}
              data-testid="mail-claim-answer"
            >
              {answer.message}
            </p>
          ) : null}
          {claimable && !answer?.ok ? (
            <fetcher.Form method="post" onSubmit={onSubmit} className="mt-3">
              <Button type="submit" fullWidth loading={fetcher.state !== 'idle'}>
                {formatCoins(attachment.coins)}コインを受け取る
              </Button>
            </fetcher.Form>
          ) : null}
          {attachment.claimed && !answer ? <p className="mt-3 text-sm text-muted">受け取り済みです。</p> : null}
          {attachment.expired && !attachment.claimed ? (
            <p className="mt-3 text-sm text-muted">受け取り期限を過ぎました。</p>
          ) : null}
        </section>
      ) : null}
    </article>
  );
}
