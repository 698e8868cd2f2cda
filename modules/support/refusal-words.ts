// The inquiries' refusal words (the contact form, its images, the desk): status and Japanese message.
import { digits, megabytes, type RefusalWords } from '#modules/kernel';
import type { InquiryRefusalCode } from './inquiries';
import { INQUIRY_LIMITS } from './words';
import type { InquiryImageRefusalCode } from './images';
import type { AppealRefusalCode } from './appeals';

const imageNumber = (d: Record<string, unknown>) => (d.image ? `${digits(d.image)}枚目の画像` : '画像');

export const INQUIRY_REFUSAL_WORDS: RefusalWords<InquiryRefusalCode> = {
  INQUIRY_NOT_FOUND: { status: 404, message: 'お問い合わせが見つかりません。' },
  INQUIRY_RELATED_NOT_FOUND: {
    status: 404,
    message: '選んだご利用（注文・オリパ・発送依頼）が見つかりません。一覧から選び直してください。',
  },
  INQUIRY_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `短い時間に多くのお問い合わせが送信されました。${d.retryAfterSeconds ? `約${digits(Math.ceil(Number(d.retryAfterSeconds) / 60))}分後に` : 'しばらく時間をおいて'}もう一度お送りください。`,
  },
  INQUIRY_CAPTCHA_REQUIRED: { status: 400, message: '確認のため、下のチェックを完了してから送信してください。' },
  INQUIRY_CAPTCHA_INVALID: {
    status: 400,
    message: '確認に失敗しました。もう一度チェックを完了してから送信してください。',
  },
  INQUIRY_SPAM: {
    status: 400,
    message: '送信できませんでした。ページを再読み込みして、もう一度お試しください。',
  },
  INQUIRY_ASSIGNEE_INVALID: {
    status: 422,
    message: '担当者には、お問い合わせを閲覧できるスタッフを選んでください。',
  },
  INQUIRY_TEMPLATE_NOT_FOUND: { status: 404, message: 'テンプレートが見つかりません。' },
};

export const INQUIRY_IMAGE_REFUSAL_WORDS: RefusalWords<InquiryImageRefusalCode> = {
  INQUIRY_IMAGE_TOO_LARGE: {
    status: 400,
    message: (d) =>
      `${imageNumber(d)}が大きすぎます（1枚${megabytes(d.maxBytes)}まで）。小さくしてから添付してください。`,
  },
  INQUIRY_IMAGE_TYPE: {
    status: 400,
    message: (d) => `${imageNumber(d)}は読み込めませんでした。JPEG・PNG・WebPの画像を添付してください。`,
  },
  INQUIRY_IMAGE_TOO_MANY: {
    status: 400,
    message: (d) => `添付できる画像は${digits(d.max ?? INQUIRY_LIMITS.images)}枚までです。`,
  },
};

export const APPEAL_REFUSAL_WORDS: RefusalWords<AppealRefusalCode> = {
  APPEAL_NOT_FOUND: {
    status: 404,
    message: '異議を申し立てられる利用制限が見つかりません（すでに解除されている場合があります）。',
  },
  APPEAL_ALREADY_SENT: {
    status: 409,
    message: (d) =>
      `この利用制限への異議申し立ては受付済みです${d.reference ? `（受付番号 ${String(d.reference)}）` : ''}。結果はメールと明細のページでお知らせします。`,
  },
  APPEAL_WINDOW_CLOSED: {
    status: 409,
    message: '異議申し立ての受付期間（お知らせから30日）を過ぎています。お問い合わせフォームからご連絡ください。',
  },
};
