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
  | 'staff-invite';
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

/** A block of the mail: a paragraph, a button with its link, or a small note. */
type Block = { p: string } | { button: string; url: string } | { note: string };

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

function mailWords(template: MailTemplate, vars: Record<string, string>, site: SiteIdentity): MailWords {
  const url = (name: string) => httpUrl(template, name, vars[name]!);
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
  }
}

function textOf(words: MailWords, site: SiteIdentity): string {
  const lines: string[] = [];
  for (const block of words.blocks) {
    if ('p' in block) lines.push(block.p, '');
    else if ('button' in block) lines.push(`▼${block.button}`, block.url, '');
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
