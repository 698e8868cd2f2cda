// The one way support tells an inquirer something: the acknowledgement with the reference number and
// each staff answer, queued as a mail in the caller's transaction (the mail exists exactly when the
// inquiry or the answer does). The member's mailbox (issue 14) plugs in here: when it exists, a member's
// answer goes to the mailbox (and a short mail that one is waiting); a visitor's stays a mail.
import type { Database } from '#db/client';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { INQUIRY_CATEGORY_LABELS } from './words';
import type { InquiryCategory } from './schema';

/** The contact form's page (the mails' button: a follow-up quotes the reference there). */
export const CONTACT_PAGE_PATH = '/contact';

export type InquiryNotice =
  | { kind: 'received'; reference: string; category: InquiryCategory }
  | { kind: 'answered'; reference: string; reply: string };

/** Who the notice is for: the inquiry's address, and its member when a member sent it. */
export interface Inquirer {
  email: string;
  memberId: string | null;
}

/**
 * Tells the inquirer, in the caller's transaction.
 * @example await notifyInquirer(tx, site, { email, memberId }, { kind: 'answered', reference, reply })
 */
export async function notifyInquirer(
  tx: Database,
  site: SiteIdentity,
  inquirer: Inquirer,
  notice: InquiryNotice,
): Promise<void> {
  const url = `${site.origin.replace(/\/$/, '')}${CONTACT_PAGE_PATH}`;
  const memberId = inquirer.memberId ?? undefined;
  if (notice.kind === 'received') {
    await queueMail(tx, site, {
      to: inquirer.email,
      template: 'inquiry-received',
      vars: { url, reference: notice.reference, category: INQUIRY_CATEGORY_LABELS[notice.category] },
      memberId,
    });
    return;
  }
  await queueMail(tx, site, {
    to: inquirer.email,
    template: 'inquiry-reply',
    vars: { url, reference: notice.reference, reply: notice.reply },
    memberId,
  });
}
