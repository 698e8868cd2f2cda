// The account mails' words (sign-up, password, magic link, e-mail change, account notices, staff invitation).
// Texts as sent; every variable is checked (links http(s) only) and escaped by templates.ts's renderMail.
import type { MailTemplate, SiteIdentity } from './templates';
import { httpUrl, type MailWords } from './mail-words';

export const ACCOUNT_MAILS = [
  'verify-email',
  'password-reset',
  'magic-link',
  'email-change-verify',
  'email-change-confirm',
  'email-change-notice',
  'account-exists',
  'account-deleted',
  'account-restricted',
  'appeal-decided',
  'staff-invite',
] as const satisfies readonly MailTemplate[];
export type AccountMail = (typeof ACCOUNT_MAILS)[number];

export function accountMailWords(template: AccountMail, vars: Record<string, string>, site: SiteIdentity): MailWords {
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
    case 'account-restricted':
      return {
        subject: `【${site.name}】アカウントの${vars.kind}のお知らせ`,
        blocks: [
          { p: `お客さまのアカウントを「${vars.kind}」としました。` },
          { p: `理由の区分: ${vars.category}` },
          { p: vars.meaning! },
          { p: `期間: ${vars.until}` },
          {
            p: `お持ちのコインと獲得商品の明細、異議申し立ては下のボタンのページからご確認いただけます。異議申し立ては${vars.appealUntil}まで受け付けます。`,
          },
          { button: '明細と異議申し立て', url: url('url') },
          { p: '制限中のコインと獲得商品の扱いは「アカウントの利用制限について」に定めています。' },
          { button: 'アカウントの利用制限について', url: url('policyUrl') },
        ],
        ifNotYou: 'お心当たりがない場合は、お問い合わせ窓口までご連絡ください。',
      };
    case 'appeal-decided':
      return {
        subject: `【${site.name}】異議申し立ての結果のお知らせ`,
        blocks: [
          { p: `お送りいただいた異議申し立てについて、判断の結果をお知らせします。` },
          { p: `結果: ${vars.outcome}` },
          { quote: vars.statement! },
          { button: '明細を確認する', url: url('url') },
        ],
        ifNotYou: 'お心当たりがない場合は、お問い合わせ窓口までご連絡ください。',
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
