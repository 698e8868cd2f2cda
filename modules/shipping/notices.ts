// The one way shipping tells a member something (each status change, compensation, the storage of kept
// prizes): a notice, queued as an email and written to the mailbox (decision 034) in the caller's transaction.
import type { Database } from '#db/client';
import { memberContactOf } from '#modules/identity';
import { queueMail, renderMail, type MailTemplate, type SiteIdentity } from '#modules/messaging';
import { notifyMember as notifyMailbox, type MailCategory, type MemberNotice } from '#modules/mailbox';
import { CARRIERS, trackingUrl, type CarrierCode } from './carriers';
import type { JstDate } from './business-days';
import type { MissingCardCondition } from './schema';

/** Why a card could not be sent, as a phrase before ご用意できませんでした. */
export const MISSING_CARD_REASONS: Readonly<Record<MissingCardCondition, string>> = {
  missing: '在庫の不足により',
  damaged: 'カードの傷みにより',
};

/** The member's pages a notice links to (the pages themselves are the app's). */
export const SHIPPING_PAGE_PATHS = {
  request: (requestId: string) => `/mypage/shipping/${encodeURIComponent(requestId)}`,
  prizeBox: '/mypage?tab=prizes',
} as const;

export type ShippingNotice =
  | { kind: 'requested'; requestId: string; items: number; promisedDate: JstDate; feeCoins: number }
  | { kind: 'preparing'; requestId: string; promisedDate: JstDate }
  | { kind: 'reshipping'; requestId: string }
  | { kind: 'shipped'; requestId: string; carrier: CarrierCode; trackingNumber: string }
  | { kind: 'delivered'; requestId: string }
  | { kind: 'returned'; requestId: string }
  | { kind: 'canceled'; requestId: string; items: number; refundCoins: number; byShop: boolean }
  | { kind: 'converted'; requestId: string; items: number; coins: number }
  | { kind: 'compensated'; requestId: string; promisedDate: JstDate; coins: number }
  | {
      kind: 'card-substituted';
      requestId: string;
      condition: MissingCardCondition;
      cardName: string;
      substituteName: string;
    }
  | { kind: 'card-compensated'; requestId: string; condition: MissingCardCondition; cardName: string; coins: number }
  | { kind: 'storage-reminder'; items: number; keepUntil: Date; daysBefore: number }
  | { kind: 'storage-converted'; items: number; coins: number };

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];

/**
 * A Japanese date as mails and pages write it.
 * @example jstDateLabel('2027-05-10') // '2027年5月10日（月）'
 */
export function jstDateLabel(date: JstDate): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  return `${year}年${month}月${day}日（${weekday}）`;
}

/** An instant's date in Japan, written out (a kept prize's end of storage). */
function instantLabel(instant: Date): string {
  const jst = new Date(instant.getTime() + 9 * 3_600_000);
  return jstDateLabel(jst.toISOString().slice(0, 10));
}

const coins = (n: number) => n.toLocaleString('ja-JP');

function mailOf(notice: ShippingNotice, site: SiteIdentity): { template: MailTemplate; vars: Record<string, string> } {
  const url = (path: string) => `${site.origin.replace(/\/$/, '')}${path}`;
  const request = 'requestId' in notice ? url(SHIPPING_PAGE_PATHS.request(notice.requestId)) : '';
  switch (notice.kind) {
    case 'requested':
      return {
        template: 'shipping-requested',
        vars: {
          url: request,
          items: String(notice.items),
          promisedDate: jstDateLabel(notice.promisedDate),
          fee: notice.feeCoins > 0 ? `${coins(notice.feeCoins)}コイン` : '無料',
        },
      };
    case 'preparing':
      return {
        template: 'shipping-preparing',
        vars: { url: request, promisedDate: jstDateLabel(notice.promisedDate) },
      };
    case 'reshipping':
      return { template: 'shipping-reshipping', vars: { url: request } };
    case 'shipped':
      return {
        template: 'shipping-shipped',
        vars: {
          url: request,
          carrier: CARRIERS[notice.carrier].name,
          trackingNumber: notice.trackingNumber,
          trackingUrl: trackingUrl(notice.carrier, notice.trackingNumber),
        },
      };
    case 'delivered':
      return { template: 'shipping-delivered', vars: { url: request } };
    case 'returned':
      return { template: 'shipping-returned', vars: { url: request } };
    case 'canceled':
      return {
        template: notice.byShop ? 'shipping-canceled-by-shop' : 'shipping-canceled',
        vars: { url: request, items: String(notice.items), refundCoins: coins(notice.refundCoins) },
      };
    case 'converted':
      return {
        template: 'shipping-converted',
        vars: { url: request, items: String(notice.items), coins: coins(notice.coins) },
      };
    case 'compensated':
      return {
        template: 'shipping-compensated',
        vars: { url: request, promisedDate: jstDateLabel(notice.promisedDate), coins: coins(notice.coins) },
      };
    case 'card-substituted':
      return {
        template: 'shipping-card-substituted',
        vars: {
          url: request,
          cardName: notice.cardName,
          substituteName: notice.substituteName,
          reason: MISSING_CARD_REASONS[notice.condition],
        },
      };
    case 'card-compensated':
      return {
        template: 'shipping-card-compensated',
        vars: {
          url: request,
          cardName: notice.cardName,
          coins: coins(notice.coins),
          reason: MISSING_CARD_REASONS[notice.condition],
        },
      };
    case 'storage-reminder':
      return {
        template: 'prize-storage-reminder',
        vars: {
          url: url(SHIPPING_PAGE_PATHS.prizeBox),
          items: String(notice.items),
          keepUntil: instantLabel(notice.keepUntil),
          days: String(notice.daysBefore),
        },
      };
    case 'storage-converted':
      return {
        template: 'prize-storage-converted',
        vars: { url: url(SHIPPING_PAGE_PATHS.prizeBox), items: String(notice.items), coins: coins(notice.coins) },
      };
  }
}

/**
 * Tells the member, in the caller's transaction (the notice exists exactly when the change does). A
 * member without an address that takes mail (退会, a LINE-only sign-up) gets no mail; the change stands.
 * @example await notifyMember(tx, site, request.memberId, { kind: 'delivered', requestId: request.id })
 */
export async function notifyMember(
  tx: Database,
  site: SiteIdentity,
  memberId: string,
  notice: ShippingNotice,
): Promise<void> {
  const { template, vars } = mailOf(notice, site);
  await mailboxMailOf(tx, site, memberId, notice, template, vars);
  const contact = await memberContactOf(tx, memberId);
  if (!contact?.email) return;
  await queueMail(tx, site, { to: contact.email, template, vars, memberId });
}

/** One mailbox mail per event: the request and what happened (a second shipment has its tracking number). */
function dedupeKeyOf(notice: ShippingNotice): string | null {
  switch (notice.kind) {
    case 'storage-reminder':
      return `storage-reminder:${notice.daysBefore}d:${notice.keepUntil.toISOString().slice(0, 10)}`;
    case 'storage-converted':
      return null; // the deadline job's own mailbox notice names every converted prize (server/jobs/prize-mails.ts)
    case 'shipped':
      return `shipping:${notice.requestId}:shipped:${notice.trackingNumber}`;
    case 'card-substituted':
    case 'card-compensated':
      return `shipping:${notice.requestId}:${notice.kind}:${notice.cardName}`;
    default:
      return `shipping:${notice.requestId}:${notice.kind}`;
  }
}

/**
 * The mailbox's copy of the email: its subject without the site's name, its paragraphs, its button as a
 * link to the page (a site path); the email's own footer stays out. No email option: shipping emails itself.
 */
async function mailboxMailOf(
  tx: Database,
  site: SiteIdentity,
  memberId: string,
  notice: ShippingNotice,
  template: MailTemplate,
  vars: Record<string, string>,
) {
  const dedupeKey = dedupeKeyOf(notice);
  if (!dedupeKey) return;
  const rendered = renderMail(template, vars, site);
  const origin = site.origin.replace(/\/$/, '');
  const lines = rendered.text.split('\n');
  const body: Exclude<MemberNotice['body'], string> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('お心当たりがない場合') || line === '――') break;
    if (line === '') continue;
    const next = lines[i + 1]?.trim() ?? '';
    if (line.startsWith('▼') && /^https?:\/\//.test(next)) {
      const label = line.slice(1);
      const url = next.startsWith(origin) ? next.slice(origin.length) || '/' : next;
      body.push({
        type: 'paragraph',
        text: label,
        spans: [{ start: 0, end: label.length, type: 'hyperlink', data: { url } }],
      });
      i += 1;
    } else body.push({ type: 'paragraph', text: line.replace(/^※/, '※ '), spans: [] });
  }
  const category: MailCategory = notice.kind === 'storage-reminder' ? 'prize_deadline' : 'shipping_status';
  await notifyMailbox(tx, {
    memberId,
    category,
    dedupeKey,
    subject: rendered.subject.replace(/^【[^】]*】/, ''),
    body,
    email: false, // shipping mails every notice by itself (above)
  });
}
