// The messages' words: Japanese mails (subject, plain text, HTML) and SMS, rendered from a template
// and its variables when the message is queued. Pure: no database, no settings beyond the site.
// Variables are untrusted (an address someone typed, a link with a code): every one is escaped in
// HTML, links must be http(s), and a missing or unknown variable is a programming error (thrown).
// Here: the templates, their variables and the rendering; the words by family: account-mails.ts,
// shipping-mails.ts, notice-mails.ts (their shared pieces: mail-words.ts).
import type { MailWords } from './mail-words';
import { ACCOUNT_MAILS, accountMailWords } from './account-mails';
import { PRIZE_MAILS, prizeMailWords, SHIPPING_MAILS, shippingMailWords } from './shipping-mails';
import { noticeMailWords } from './notice-mails';

export type MailTemplate =
  | 'verify-email'
  | 'password-reset'
  | 'magic-link'
  | 'email-change-confirm'
  | 'email-change-verify'
  | 'email-change-notice'
  | 'account-exists'
  | 'account-deleted'
  | 'account-restricted'
  | 'appeal-decided'
  | 'staff-invite'
  | 'shipping-requested'
  | 'shipping-preparing'
  | 'shipping-reshipping'
  | 'shipping-shipped'
  | 'shipping-delivered'
  | 'shipping-returned'
  | 'shipping-canceled'
  | 'shipping-canceled-by-shop'
  | 'shipping-converted'
  | 'shipping-compensated'
  | 'shipping-card-substituted'
  | 'shipping-card-compensated'
  | 'prize-storage-reminder'
  | 'prize-storage-converted'
  | 'inquiry-received'
  | 'inquiry-reply'
  | 'mailbox-notice'
  | 'shop-closure';
export type SmsTemplate = 'phone-code';

/** The shop as a message names it: SITE_NAME and PUBLIC_ORIGIN. */
export interface SiteIdentity {
  name: string;
  origin: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The variables each mail template needs (exactly these). */
export const MAIL_TEMPLATE_VARS = {
  'verify-email': ['url'],
  'password-reset': ['url'],
  'magic-link': ['url'],
  'email-change-confirm': ['url', 'newEmail'],
  'email-change-verify': ['url', 'newEmail'],
  'email-change-notice': ['newEmail', 'url'],
  'account-exists': ['signInUrl', 'resetUrl'],
  'account-deleted': [],
  // An operator's hold or ban (decision 084): the kind and reason category in the account policy's words,
  // the end (「2027/1/5 15:00まで」 or 「解除するまで」), the statement page (`url`: a banned member's link), the policy, the appeal's
  // last day. `outcome` is 制限を継続 or 制限を解除, `statement` the operator's own words to the member.
  'account-restricted': ['kind', 'category', 'meaning', 'until', 'url', 'policyUrl', 'appealUntil'],
  'appeal-decided': ['outcome', 'statement', 'url'],
  'staff-invite': ['url', 'role', 'days'],
  // Shipping (issue 12). `url` is the request's page (or the prize box); dates are written out in
  // Japanese by the caller; `refundCoins` '0' leaves the refund sentence out.
  'shipping-requested': ['url', 'items', 'promisedDate', 'fee'],
  'shipping-preparing': ['url', 'promisedDate'],
  'shipping-reshipping': ['url'],
  'shipping-shipped': ['url', 'carrier', 'trackingNumber', 'trackingUrl'],
  'shipping-delivered': ['url'],
  'shipping-returned': ['url'],
  'shipping-canceled': ['url', 'items', 'refundCoins'],
  'shipping-canceled-by-shop': ['url', 'items', 'refundCoins'],
  'shipping-converted': ['url', 'items', 'coins'],
  'shipping-compensated': ['url', 'promisedDate', 'coins'],
  // A card the shop could not send (missing or damaged): `reason` is the Japanese phrase of why.
  'shipping-card-substituted': ['url', 'cardName', 'substituteName', 'reason'],
  'shipping-card-compensated': ['url', 'cardName', 'coins', 'reason'],
  'prize-storage-reminder': ['url', 'items', 'keepUntil', 'days'],
  'prize-storage-converted': ['url', 'items', 'coins'],
  // Inquiries (issue 13). `url` is the contact form (a follow-up quotes the reference); the
  // acknowledgement never repeats what the sender typed (anyone can type anyone's address into the
  // form: the shop must not relay their text), while `reply` is the staff's own answer.
  'inquiry-received': ['url', 'reference', 'category'],
  'inquiry-reply': ['url', 'reference', 'reply'],
  // The mailbox (decision 034): a member who opted in hears of a new mail; the body stays in the mailbox.
  'mailbox-notice': ['subject', 'url'],
  'shop-closure': ['paid', 'free', 'refundJpy', 'prizes', 'salesStop', 'deadline', 'how', 'url', 'noticeUrl'],
} as const satisfies Record<MailTemplate, readonly string[]>;

export const SMS_TEMPLATE_VARS = {
  'phone-code': ['code', 'minutes'],
} as const satisfies Record<SmsTemplate, readonly string[]>;

export const MAIL_TEMPLATES = Object.keys(MAIL_TEMPLATE_VARS) as MailTemplate[];
export const SMS_TEMPLATES = Object.keys(SMS_TEMPLATE_VARS) as SmsTemplate[];

/** The primary button colour (decision 003: white 20 px bold labels on it). */
const PRIMARY = '#ef3a6e';
const INK = '#1f2933';
const MUTED = '#5f6b7a';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );
}

function checkVars(template: string, expected: readonly string[], vars: Record<string, string>) {
  for (const name of expected) {
    if (typeof vars[name] !== 'string' || vars[name] === '')
      throw new RangeError(`messaging: template ${template} needs the variable ${name}`);
  }
  const unknown = Object.keys(vars).filter((name) => !expected.includes(name));
  if (unknown.length > 0) throw new RangeError(`messaging: template ${template} has no variable ${unknown.join(', ')}`);
}

/** One of `list`: narrows a template to its family. */
const isOneOf = <T extends string>(list: readonly T[], template: string): template is T =>
  (list as readonly string[]).includes(template);

/** The words of a mail, from its family's file. */
function mailWords(template: MailTemplate, vars: Record<string, string>, site: SiteIdentity): MailWords {
  if (isOneOf(ACCOUNT_MAILS, template)) return accountMailWords(template, vars, site);
  if (isOneOf(SHIPPING_MAILS, template)) return shippingMailWords(template, vars, site);
  if (isOneOf(PRIZE_MAILS, template)) return prizeMailWords(template, vars, site);
  return noticeMailWords(template, vars, site);
}

function textOf(words: MailWords, site: SiteIdentity): string {
  const lines: string[] = [];
  for (const block of words.blocks) {
    if ('p' in block) lines.push(block.p, '');
    else if ('button' in block) lines.push(`▼${block.button}`, block.url, '');
    else if ('quote' in block) lines.push('――――――――', block.quote, '――――――――', '');
    else lines.push(`※${block.note}`, '');
  }
  lines.push(words.ifNotYou, '', '――', `${site.name}`, site.origin, 'このメールは送信専用です。返信はできません。');
  return lines.join('\n') + '\n';
}

function htmlOf(words: MailWords, site: SiteIdentity): string {
  const e = escapeHtml;
  const body = words.blocks
    .map((block) => {
      if ('p' in block)
        return `<p style="margin:0 0 16px;font-size:15px;line-height:1.7;color:${INK};">${e(block.p)}</p>`;
      if ('note' in block)
        return `<p style="margin:0 0 16px;font-size:13px;line-height:1.6;color:${MUTED};">※${e(block.note)}</p>`;
      if ('quote' in block)
        return `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #e3e7ec;background:#fafbfc;font-size:15px;line-height:1.7;color:${INK};white-space:pre-wrap;word-break:break-word;">${e(block.quote)}</div>`;
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;"><tr>` +
        `<td style="border-radius:999px;background:${PRIMARY};">` +
        `<a href="${e(block.url)}" style="display:inline-block;padding:14px 28px;font-size:20px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:999px;">${e(block.button)}</a>` +
        `</td></tr></table>` +
        `<p style="margin:0 0 16px;font-size:12px;line-height:1.6;color:${MUTED};word-break:break-all;">ボタンが使えない場合は、次のアドレスをブラウザに貼り付けてください。<br><a href="${e(block.url)}" style="color:#cf1f59;">${e(block.url)}</a></p>`
      );
    })
    .join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(words.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f5f6f8;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f5f6f8;"><tr><td align="center" style="padding:24px 12px;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:16px;font-family:'Hiragino Sans','Hiragino Kaku Gothic ProN','Noto Sans JP',Meiryo,sans-serif;">`,
    `<tr><td style="padding:20px 24px;border-bottom:4px solid ${PRIMARY};font-size:18px;font-weight:bold;color:${INK};">${e(site.name)}</td></tr>`,
    `<tr><td style="padding:24px;">`,
    body,
    `<p style="margin:24px 0 0;padding:12px 16px;background:#f5f6f8;border-radius:8px;font-size:13px;line-height:1.6;color:${MUTED};">${e(words.ifNotYou)}</p>`,
    `</td></tr>`,
    `<tr><td style="padding:16px 24px;font-size:12px;line-height:1.6;color:${MUTED};">${e(site.name)}<br><a href="${e(site.origin)}" style="color:${MUTED};">${e(site.origin)}</a><br>このメールは送信専用です。返信はできません。</td></tr>`,
    `</table></td></tr></table></body></html>`,
    '',
  ].join('\n');
}

/**
 * @example renderMail('password-reset', { url: 'https://example.jp/auth/action?mode=resetPassword&oobCode=x' }, site).subject
 *   === '【オリパ ステラ】パスワードの再設定'
 */
export function renderMail(template: MailTemplate, vars: Record<string, string>, site: SiteIdentity): RenderedMail {
  const expected = MAIL_TEMPLATE_VARS[template] as readonly string[] | undefined;
  if (!expected) throw new RangeError(`messaging: no mail template ${String(template)}`);
  checkVars(template, expected, vars);
  const words = mailWords(template, vars, site);
  return { subject: words.subject, text: textOf(words, site), html: htmlOf(words, site) };
}

/**
 * A short SMS (one segment of 70 characters for the default site name).
 * @example renderSms('phone-code', { code: '123456', minutes: '10' }, site)
 *   === '【オリパ ステラ】認証コード: 123456（10分間有効）。このコードを他人に教えないでください。'
 */
export function renderSms(template: SmsTemplate, vars: Record<string, string>, site: SiteIdentity): string {
  const expected = SMS_TEMPLATE_VARS[template] as readonly string[] | undefined;
  if (!expected) throw new RangeError(`messaging: no SMS template ${String(template)}`);
  checkVars(template, expected, vars);
  const code = vars.code!;
  const minutes = vars.minutes!;
  if (!/^\d{4,10}$/.test(code)) throw new RangeError('messaging: phone-code: code must be 4 to 10 digits');
  if (!/^[1-9]\d{0,3}$/.test(minutes)) throw new RangeError('messaging: phone-code: minutes must be a whole number');
  return `【${site.name}】認証コード: ${code}（${minutes}分間有効）。このコードを他人に教えないでください。`;
}
