// The words of mails that point to a message: an inquiry received or answered, a new mail in the mailbox.
import type { MailTemplate, SiteIdentity } from './templates';
import { NOTICE_IF_NOT_YOU, httpUrl, type MailWords } from './mail-words';

export const NOTICE_MAILS = [
  'inquiry-received',
  'inquiry-reply',
  'mailbox-notice',
  'shop-closure',
] as const satisfies readonly MailTemplate[];
export type NoticeMail = (typeof NOTICE_MAILS)[number];

export function noticeMailWords(template: NoticeMail, vars: Record<string, string>, site: SiteIdentity): MailWords {
  const url = (name: string) => httpUrl(template, name, vars[name]!);
  switch (template) {
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
    // The closure's legal notice (decision 085, 資金決済法 第20条): sent to every member with a balance, whatever
    // their mail preferences, once.
    case 'shop-closure':
      return {
        subject: `【${site.name}】閉店と払戻しのお知らせ`,
        blocks: [
          { p: `${site.name}は${vars.salesStop}（日本時間）をもってコインの販売とガチャを終了いたします。` },
          {
            p: `お知らせ時点の残高：有償コイン ${vars.paid}枚・無償コイン ${vars.free}枚・保管中のカード ${vars.prizes}枚`,
          },
          {
            p: `未使用の有償コインは1コイン1円で払い戻します（いまの残高で ${vars.refundJpy}円）。無償コインは払戻しの対象ではありません。`,
          },
          { p: `払戻しの申出期限：${vars.deadline}（日本時間）。${vars.how}` },
          { button: '払戻しを申し込む', url: url('url') },
          { note: `公告の全文：${httpUrl(template, 'noticeUrl', vars.noticeUrl!)}` },
        ],
        ifNotYou: NOTICE_IF_NOT_YOU,
      };
  }
}
