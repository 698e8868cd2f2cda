// What every mail's words are made of (the families: account-mails.ts, shipping-mails.ts, notice-mails.ts):
// blocks, the checked links (http(s) only; tracking pages of the carriers only), the shared if-not-you line.

/** A block of the mail: a paragraph, a button with its link, a small note, or a quoted text kept as written (line breaks). */
type Block = { p: string } | { button: string; url: string } | { note: string } | { quote: string };

export interface MailWords {
  subject: string;
  blocks: Block[];
  /** What to do when the member did not ask for it (every mail says it). */
  ifNotYou: string;
}

export function httpUrl(template: string, name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RangeError(`messaging: template ${template}: ${name} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new RangeError(`messaging: template ${template}: ${name} must be an http(s) URL`);
  if (/[\s<>"]/.test(value)) throw new RangeError(`messaging: template ${template}: ${name} holds spaces or quotes`);
  return value;
}

/**
 * The carriers' tracking pages a shipping mail may link to (carriers.ts of the shipping module builds
 * them): the only links in any mail that are not the shop's own.
 */
export const CARRIER_TRACKING_HOSTS: readonly string[] = [
  'toi.kuronekoyamato.co.jp',
  'k2k.sagawa-exp.co.jp',
  'trackings.post.japanpost.jp',
];

export function trackingLink(template: string, value: string): string {
  const url = httpUrl(template, 'trackingUrl', value);
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || !CARRIER_TRACKING_HOSTS.includes(parsed.hostname))
    throw new RangeError(`messaging: template ${template}: trackingUrl must be a carrier's tracking page`);
  return url;
}

/** Notices about the member's own requests and prizes: what to do when it does not look like theirs. */
export const NOTICE_IF_NOT_YOU =
  'お心当たりがない場合は、第三者がアカウントを使っているおそれがあります。パスワードを変更し、お問い合わせ窓口までご連絡ください。';
