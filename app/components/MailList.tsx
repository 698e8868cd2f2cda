// The mailbox's list rows: unread mark (新着), subject, date, and the attachment's badge (coins, deadline,
// 受取済 or 期限切れ). Each row opens the mail.
import { AppLink } from './AppLink';
import { GiftIcon } from './icons';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';

export interface MailRow {
  id: number;
  subject: string;
  sendAt: string;
  read: boolean;
  attachment: { coins: number; claimUntil: string | null; claimed: boolean; expired: boolean } | null;
}

/** The attachment's state in words: 受取済, 期限切れ, or the deadline. */
export function AttachmentBadge({ attachment }: { attachment: NonNullable<MailRow['attachment']> }) {
  const state = attachment.claimed
    ? { text: '受取済', tone: 'border border-line bg-white text-muted' }
    : attachment.expired
      ? { text: '期限切れ', tone: 'border border-line bg-white text-muted' }
      : {
          text: attachment.claimUntil ? `${formatMemberDateTime(attachment.claimUntil)}まで` : '期限なし',
          tone: 'border border-line bg-white text-ink',
        };
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1 text-xs">
      <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 font-bold text-amber-900">
        <GiftIcon className="size-3.5" />
        {formatCoins(attachment.coins)}コイン
      </span>
      <span className={`rounded-full px-2 py-0.5 font-bold ${state.tone}`}>{state.text}</span>
    </span>
  );
}

export function MailList({ items, label }: { items: MailRow[]; label: string }) {
  return (
    <ul className="divide-y divide-line rounded-2xl bg-white shadow-sm" aria-label={label}>
      {items.map((mail) => (
        <li key={mail.id}>
          <AppLink
            to={`/myinbox/mail/${mail.id}`}
            className="flex items-start gap-3 px-4 py-3 hover:bg-canvas"
            data-testid="mail-row"
          >
            <span
              aria-hidden="true"
              className={`mt-1.5 size-2 shrink-0 rounded-full ${mail.read ? 'bg-transparent' : 'bg-primary'}`}
            />
            <span className="min-w-0 flex-1">
              <span className="flex items-center gap-2">
                {!mail.read ? (
                  <span className="shrink-0 rounded bg-primary-ink px-1.5 text-xs font-bold text-white">新着</span>
                ) : null}
                <span className={`truncate text-sm ${mail.read ? '' : 'font-bold'}`}>{mail.subject}</span>
              </span>
              <span className="mt-0.5 block text-xs text-muted">
                <time dateTime={mail.sendAt}>{formatMemberDateTime(mail.sendAt)}</time>
                {!mail.read ? <span className="sr-only">（未読）</span> : null}
              </span>
              {mail.attachment ? <AttachmentBadge attachment={mail.attachment} /> : null}
            </span>
          </AppLink>
        </li>
      ))}
    </ul>
  );
}
