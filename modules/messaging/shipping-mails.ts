// The shipping mails' words: a request's steps (requested … delivered, returned, canceled, converted), the
// desk's substitutes and compensation, and kept prizes' storage reminders. Tracking links go to carriers only.
import type { MailTemplate, SiteIdentity } from './templates';
import { NOTICE_IF_NOT_YOU, httpUrl, trackingLink, type MailWords } from './mail-words';

export const SHIPPING_MAILS = [
  'shipping-requested',
  'shipping-preparing',
  'shipping-reshipping',
  'shipping-shipped',
  'shipping-delivered',
  'shipping-returned',
  'shipping-canceled',
  'shipping-canceled-by-shop',
  'shipping-converted',
  'shipping-compensated',
] as const satisfies readonly MailTemplate[];
export type ShippingMail = (typeof SHIPPING_MAILS)[number];

/** A prize's own mails: the desk's substitute or compensation for a missing card, kept prizes' storage. */
export const PRIZE_MAILS = [
  'shipping-card-substituted',
  'shipping-card-compensated',
  'prize-storage-reminder',
  'prize-storage-converted',
] as const satisfies readonly MailTemplate[];
export type PrizeMail = (typeof PRIZE_MAILS)[number];

export function shippingMailWords(template: ShippingMail, vars: Record<string, string>, site: SiteIdentity): MailWords {
  const url = (name: string) => httpUrl(template, name, vars[name]!);
  const refund = (coins: string) =>
    coins === '0' ? [] : [{ p: `お支払いいただいた発送手数料 ${coins}コインは返却しました。` }];
  switch (template) {
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
  }
}

export function prizeMailWords(template: PrizeMail, vars: Record<string, string>, site: SiteIdentity): MailWords {
  const url = (name: string) => httpUrl(template, name, vars[name]!);
  switch (template) {
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
