// The messages' words: Japanese mails (subject, plain text, HTML) and SMS, rendered from a template
// and its variables when the message is queued. Pure: no database, no settings beyond the site.
// Variables are untrusted (an address someone typed, a link with a code): every one is escaped in
// HTML, links must be http(s), and a missing or unknown variable is a programming error (thrown).

export type MailTemplate =
  | 'verify-email'
  | 'password-reset'
  | 'magic-link'
  | 'email-change-confirm'
  | 'email-change-verify'
  | 'email-change-notice'
  | 'account-exists'
  | 'account-deleted'
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
  | 'mailbox-notice';
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

/** A block of the mail: a paragraph, a button with its link, a small note, or a quoted text kept as written (line breaks). */
type Block = { p: string } | { button: string; url: string } | { note: string } | { quote: string };

interface MailWords {
  subject: string;
  blocks: Block[];
  /** What to do when the member did not ask for it (every mail says it). */
  ifNotYou: string;
}

function checkVars(template: string, expected: readonly string[], vars: Record<string, string>) {
  for (const name of expected) {
    if (typeof vars[name] !== 'string' || vars[name] === '')
      throw new RangeError(`messaging: template ${template} needs the variable ${name}`);
  }
  const unknown = Object.keys(vars).filter((name) => !expected.includes(name));
  if (unknown.length > 0) throw new RangeError(`messaging: template ${template} has no variable ${unknown.join(', ')}`);
}

function httpUrl(template: string, name: string, value: string): string {
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

function trackingLink(template: string, value: string): string {
  const url = httpUrl(template, 'trackingUrl', value);
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || !CARRIER_TRACKING_HOSTS.includes(parsed.hostname))
    throw new RangeError(`messaging: template ${template}: trackingUrl must be a carrier's tracking page`);
  return url;
}

/** Notices about the member's own requests and prizes: what to do when it does not look like theirs. */
const NOTICE_IF_NOT_YOU =
  'お心当たりがない場合は、第三者がアカウントを使っているおそれがあります。パスワードを変更し、お問い合わせ窓口までご連絡ください。';

function mailWords(template: MailTemplate, vars: Record<string, string>, site: SiteIdentity): MailWords {
  const url = (name: string) => httpUrl(template, name, vars[name]!);
  const refund = (coins: string) =>
    coins === '0' ? [] : [{ p: `お支払いいただいた発送手数料 ${coins}コインは返却しました。` }];
  switch (template) {
    case 'verify-email':
      return {
        subject: `【${site.name}】メールアドレスの確認`,
        blocks: [
          { p: `${site.name}へのご登録ありがとうございます。` },
          { p: '下のボタンを押して、メールアドレスの確認を完了してください。' },
          { button: 'メールアドレスを確認する', url: url('url') },
          { note: 'リンクには有効期限があります。期限が切れた場合は、もう一度お手続きください。' },
        ],
        ifNotYou: `お心当たりがない場合（${site.name}に登録していない場合）は、このメールを破棄してください。登録は完了しません。`,
      };
    case 'password-reset':
      return {
        subject: `【${site.name}】パスワードの再設定`,
        blocks: [
          { p: 'パスワード再設定のお申し込みを受け付けました。' },
          { p: '下のボタンを押して、新しいパスワードを設定してください。' },
          { button: 'パスワードを再設定する', url: url('url') },
          { note: 'リンクは一度だけ使えます。有効期限が切れた場合は、もう一度お申し込みください。' },
        ],
        ifNotYou: `お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。`,
      };
    case 'magic-link':
      return {
        subject: `【${site.name}】ログイン用リンク`,
        blocks: [
          { p: `${site.name}へのログイン用リンクをお送りします。` },
          { p: '下のボタンを押すとログインします。' },
          { button: 'ログインする', url: url('url') },
          { note: 'リンクは一度だけ使えます。他の人には転送しないでください。' },
        ],
        ifNotYou: 'お心当たりがない場合は、このメールを破棄してください。リンクを開かない限りログインは行われません。',
      };
    case 'email-change-verify':
      return {
        subject: `【${site.name}】新しいメールアドレスの確認`,
        blocks: [
          { p: `メールアドレスを ${vars.newEmail} に変更するお申し込みを受け付けました。` },
          { p: '下のボタンを押して、変更を完了してください。' },
          { button: '新しいメールアドレスを確認する', url: url('url') },
          { note: 'リンクには有効期限があります。' },
        ],
        ifNotYou: `お心当たりがない場合は、このメールを破棄してください。メールアドレスは変更されません。`,
      };
    case 'email-change-confirm':
      return {
        subject: `【${site.name}】メールアドレス変更の承認のお願い`,
        blocks: [
          { p: `ご登録のメールアドレスを ${vars.newEmail} に変更するお申し込みがありました。` },
          {
            p: 'ご本人のお申し込みであれば、下のボタンで承認してください。承認すると、新しいアドレスに確認メールが届きます。',
          },
          { button: '変更を承認する', url: url('url') },
          { note: 'リンクの有効期限は24時間です。' },
        ],
        ifNotYou:
          'お心当たりがない場合は、承認せずにこのメールを破棄し、念のためパスワードを変更してください。メールアドレスは変更されません。',
      };
    case 'email-change-notice':
      return {
        subject: `【${site.name}】メールアドレスを変更しました`,
        blocks: [
          { p: `ご登録のメールアドレスを ${vars.newEmail} に変更しました。以後のお知らせは新しいアドレスに届きます。` },
          {
            p: 'ご自身で変更していない場合は、下のボタンで元のアドレスに戻せます（3日間有効）。戻すと、すべての端末からログアウトします。',
          },
          { button: 'メールアドレスを元に戻す', url: url('url') },
        ],
        ifNotYou:
          'お心当たりがない場合は、第三者がアカウントを使っているおそれがあります。元に戻したあと、パスワードを再設定してください。',
      };
    case 'account-exists':
      return {
        subject: `【${site.name}】会員登録のお申し込みについて`,
        blocks: [
          { p: 'このメールアドレスで会員登録のお申し込みがありましたが、このアドレスはすでに登録されています。' },
          { p: 'ログインするには、下のボタンからどうぞ。' },
          { button: 'ログインする', url: url('signInUrl') },
          { p: 'パスワードをお忘れの場合は、こちらから再設定できます。' },
          { button: 'パスワードを再設定する', url: url('resetUrl') },
        ],
        ifNotYou: 'お心当たりがない場合は、このメールを破棄してください。アカウントには何も変更されていません。',
      };
    case 'account-deleted':
      return {
        subject: `【${site.name}】退会手続き完了のお知らせ`,
        blocks: [
          { p: `${site.name}の退会手続きが完了しました。これまでのご利用ありがとうございました。` },
          { p: 'またのご利用をお待ちしております。ご利用の際は、あらためて会員登録をお願いいたします。' },
        ],
        ifNotYou: 'お心当たりがない場合は、お問い合わせ窓口まですぐにご連絡ください。',
      };
    case 'staff-invite':
      return {
        subject: `【${site.name}】運営スタッフへの招待`,
        blocks: [
          { p: `${site.name}の管理画面に${vars.role}として招待されました。` },
          {
            p: 'このメールアドレスの会員としてログインし（会員でない場合は先に会員登録をしてください）、下のボタンから招待を受けてください。',
          },
          { button: '招待を受ける', url: url('url') },
          { note: `招待の有効期限は${vars.days}日です。管理画面を開くには二段階認証（認証アプリ）の設定が必要です。` },
        ],
        ifNotYou: 'お心当たりがない場合は、このメールを破棄してください。招待を受けなければ何も起こりません。',
      };
    case 'shipping-requested':
      return {
        subject: `【${site.name}】発送依頼を受け付けました`,
        blocks: [
          { p: `獲得商品 ${vars.items}枚の発送依頼を受け付けました。` },
          { p: `発送予定日は ${vars.promisedDate} です。発送手数料: ${vars.fee}` },
          { p: '発送準備が始まるまでは、依頼の詳細ページからキャンセルできます。' },
          { button: '発送依頼を確認する', url: url('url') },
          {
            note: '発送予定日を過ぎても発送されなかった場合は、お詫びのコインを自動でお贈りします。',
          },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-preparing':
      return {
        subject: `【${site.name}】発送の準備を始めました`,
        blocks: [
          { p: 'ご依頼の獲得商品の発送準備を始めました。準備中のためキャンセルはできません。' },
          { p: `発送予定日: ${vars.promisedDate}` },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-reshipping':
      return {
        subject: `【${site.name}】返送された商品を再発送します`,
        blocks: [
          { p: 'お届けできずに返送された獲得商品を、あらためて発送いたします。現在、発送の準備中です。' },
          { p: 'お届け先に不備がある場合は、お問い合わせ窓口までご連絡ください。' },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-shipped':
      return {
        subject: `【${site.name}】獲得商品を発送しました`,
        blocks: [
          { p: 'ご依頼の獲得商品を発送しました。' },
          { p: `配送業者: ${vars.carrier}　追跡番号: ${vars.trackingNumber}` },
          { button: '配送状況を確認する', url: trackingLink(template, vars.trackingUrl!) },
          { button: '発送依頼を確認する', url: url('url') },
          { note: '配送状況が反映されるまで、しばらく時間がかかることがあります。' },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-delivered':
      return {
        subject: `【${site.name}】獲得商品のお届けが完了しました`,
        blocks: [
          { p: 'ご依頼の獲得商品のお届けが完了しました。ご利用ありがとうございました。' },
          { p: '商品に不備がある場合は、お問い合わせ窓口までご連絡ください。' },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-returned':
      return {
        subject: `【${site.name}】獲得商品が返送されました`,
        blocks: [
          { p: 'お届け先にお届けできず、獲得商品が当店に返送されました。' },
          {
            p: '当店から再発送するか、コインに交換するかをご案内します。お届け先の変更などのご希望は、お問い合わせ窓口までご連絡ください。',
          },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-canceled':
      return {
        subject: `【${site.name}】発送依頼をキャンセルしました`,
        blocks: [
          { p: `発送依頼をキャンセルしました。獲得商品 ${vars.items}枚は「保管中」として獲得商品に戻りました。` },
          ...refund(vars.refundCoins!),
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-canceled-by-shop':
      return {
        subject: `【${site.name}】発送依頼をキャンセルいたしました`,
        blocks: [
          {
            p: `誠に恐れ入りますが、当店にて発送依頼をキャンセルいたしました。獲得商品 ${vars.items}枚は「保管中」として獲得商品に戻りました。`,
          },
          ...refund(vars.refundCoins!),
          { p: '詳しくは、お問い合わせ窓口までお尋ねください。' },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-converted':
      return {
        subject: `【${site.name}】返送された商品をコインに交換しました`,
        blocks: [
          {
            p: `お届けできずに返送された獲得商品 ${vars.items}枚を、${vars.coins}コイン（無償コイン）に交換しました。`,
          },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-compensated':
      return {
        subject: `【${site.name}】発送の遅れのお詫び`,
        blocks: [
          {
            p: `発送予定日（${vars.promisedDate}）までに発送できず、誠に申し訳ございません。お詫びとして ${vars.coins}コイン（無償コイン）をお贈りしました。`,
          },
          { p: '準備ができしだい発送いたします。発送しましたら、あらためてお知らせします。' },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-card-substituted':
      return {
        subject: `【${site.name}】発送するカードの変更のお知らせ`,
        blocks: [
          {
            p: `誠に申し訳ございません。ご依頼の「${vars.cardName}」を${vars.reason}ご用意できませんでした。`,
          },
          { p: `代わりに、同等以上の価値のカード「${vars.substituteName}」をお送りいたします。` },
          { p: 'ご不明な点は、お問い合わせ窓口までご連絡ください。' },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'shipping-card-compensated':
      return {
        subject: `【${site.name}】ご用意できなかったカードの補償のお知らせ`,
        blocks: [
          {
            p: `誠に申し訳ございません。ご依頼の「${vars.cardName}」を${vars.reason}ご用意できませんでした。`,
          },
          {
            p: `このカードの代わりに、${vars.coins}コイン（無償コイン）をお贈りしました。ほかのカードは引き続き発送の準備を進めます。`,
          },
          { button: '発送依頼を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'prize-storage-reminder':
      return {
        subject: `【${site.name}】保管中のカードの保管期限が近づいています`,
        blocks: [
          {
            p: `保管中のカード ${vars.items}枚の保管期限（${vars.keepUntil}）まで、あと${vars.days}日です。`,
          },
          {
            p: '期限を過ぎると、カードは自動でコイン（無償コイン）に交換されます。お手元に届けたいカードは、期限までに発送を依頼してください。',
          },
          { button: '獲得商品を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'inquiry-received':
      return {
        subject: `【${site.name}】お問い合わせを受け付けました（${vars.reference}）`,
        blocks: [
          { p: `お問い合わせを受け付けました。受付番号は ${vars.reference} です。` },
          { p: `お問い合わせの種類: ${vars.category}` },
          { p: '内容を確認のうえ、担当者よりこのメールアドレスあてにご連絡いたします。しばらくお待ちください。' },
          {
            note: '追加でお伝えいただくことがある場合は、お問い合わせフォームの本文に受付番号を書き添えてお送りください。',
          },
          { button: 'お問い合わせフォームを開く', url: url('url') },
        ],
        ifNotYou:
          'お心当たりがない場合は、どなたかがこのメールアドレスを入力して送信した可能性があります。このメールを破棄してください。',
      };
    case 'inquiry-reply':
      return {
        subject: `【${site.name}】お問い合わせへの回答（${vars.reference}）`,
        blocks: [
          { p: `お問い合わせ（受付番号 ${vars.reference}）について、担当者よりご回答いたします。` },
          { quote: vars.reply! },
          {
            p: 'このメールには返信できません。ご不明な点は、お問い合わせフォームの本文に受付番号を書き添えてお送りください。',
          },
          { button: 'お問い合わせフォームを開く', url: url('url') },
        ],
        ifNotYou: 'お心当たりがない場合は、このメールを破棄してください。',
      };
    case 'mailbox-notice':
      return {
        subject: `【${site.name}】${vars.subject}`,
        blocks: [
          { p: `メールボックスに「${vars.subject}」が届きました。` },
          { p: 'プレゼントが添付されている場合は、期限までにメールボックスから受け取ってください。' },
          { button: 'メールを読む', url: url('url') },
          { note: 'このお知らせメールは、マイページの通知設定でいつでも止められます。' },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
    case 'prize-storage-converted':
      return {
        subject: `【${site.name}】保管期限を過ぎたカードをコインに交換しました`,
        blocks: [
          {
            p: `保管期限を過ぎたカード ${vars.items}枚を、${vars.coins}コイン（無償コイン）に交換しました。`,
          },
          { button: '獲得商品を確認する', url: url('url') },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
  }
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
