// Shipping's refusal words (the address book, requests and the desk): status and Japanese message.
import { digits, type RefusalWords } from '#modules/kernel';
import type { AddressRefusalCode } from './addresses';
import type { ShippingRefusalCode } from './requests';
import { SHIPPING_STATUS_LABELS, SHIPPING_TRANSITIONS, type ShippingAction } from './request-states';
import type { ShippingStatus } from './schema';

export const ADDRESS_REFUSAL_WORDS: RefusalWords<AddressRefusalCode> = {
  ADDRESS_NOT_FOUND: { status: 404, message: '住所が見つかりません。' },
  ADDRESS_LIMIT_REACHED: {
    status: 422,
    message: (d) => `登録できる住所は${digits(d.limit ?? 5)}件までです。使わない住所を削除してから追加してください。`,
  },
  POSTAL_CODE_INVALID: { status: 400, message: '郵便番号は7桁の数字で入力してください（例: 100-0001）。' },
  POSTAL_CODE_NOT_FOUND: {
    status: 404,
    message: 'この郵便番号の住所は見つかりませんでした。番号をご確認のうえ、住所を入力してください。',
  },
};

const statusLabel = (d: Record<string, unknown>) =>
  SHIPPING_STATUS_LABELS[d.status as ShippingStatus] ?? String(d.status ?? '');
const actionLabel = (d: Record<string, unknown>) =>
  SHIPPING_TRANSITIONS[d.action as ShippingAction]?.label ?? 'この操作';
/** A carrier's check already says what is wrong in Japanese (carriers.ts); this is its fallback. */
const trackingMessage = (fallback: string) => (d: Record<string, unknown>) =>
  typeof d.message === 'string' && d.message ? d.message : fallback;

export const SHIPPING_REFUSAL_WORDS: RefusalWords<ShippingRefusalCode> = {
  SHIPPING_REQUEST_NOT_FOUND: { status: 404, message: '発送依頼が見つかりません。' },
  SHIPPING_TOO_FEW_PRIZES: {
    status: 422,
    message: (d) => `発送を依頼できるのは${digits(d.min ?? 1)}枚からです。獲得商品をもう一度選んでください。`,
  },
  SHIPPING_PHONE_UNVERIFIED: {
    status: 422,
    message: '発送を依頼するには電話番号の認証が必要です。マイページの設定から電話番号を認証してください。',
  },
  SHIPPING_HOLD: {
    status: 403,
    message: (d) =>
      d.reason === 'chargeback'
        ? 'お支払いの取り消し（チャージバック）の確認が必要なため、現在発送を依頼できません。お手数ですがお問い合わせください。'
        : d.reason === 'operator'
          ? 'アカウントの確認が必要なため、現在発送を依頼できません。お手数ですがお問い合わせください。'
          : 'お支払いの確認が必要なため、現在発送を依頼できません。お手数ですがお問い合わせください。',
  },
  SHIPPING_FEE_CHANGED: {
    status: 409,
    message: (d) =>
      `発送手数料が変わりました（現在 ${digits(d.feeCoins)}コイン）。確認画面をもう一度ご確認のうえ、お申し込みください。`,
  },
  SHIPPING_NOT_CANCELABLE: {
    status: 409,
    message: (d) =>
      `この発送依頼は「${statusLabel(d)}」のため、キャンセルできません。お困りの場合はお問い合わせください。`,
  },
  SHIPPING_STATUS_CONFLICT: {
    status: 409,
    message: (d) => `この発送依頼は現在「${statusLabel(d)}」のため、「${actionLabel(d)}」はできません。`,
  },
  SHIPPING_CSV_REFUSED: {
    status: 422,
    message: (d) => {
      const file = d.file as { message?: unknown } | undefined;
      if (file && typeof file.message === 'string') return `${file.message} 何も反映していません。`;
      const rows = Array.isArray(d.rows) ? new Set(d.rows.map((r: { line?: unknown }) => r.line)).size : 0;
      return `CSVの${digits(rows)}行に誤りがあるため、取り込みませんでした（何も反映していません）。誤りを直して、ファイル全体をもう一度取り込んでください。`;
    },
  },
  TRACKING_NUMBER_REQUIRED: { status: 400, message: trackingMessage('追跡番号を入力してください。') },
  TRACKING_NUMBER_FORMAT: {
    status: 400,
    message: trackingMessage('追跡番号の形式が正しくありません。運送会社と番号をご確認ください。'),
  },
  SHIPPING_PRIZE_NOT_IN_REQUEST: { status: 404, message: 'このカードはこの発送依頼に含まれていません。' },
  SHIPPING_CARD_ALREADY_REPORTED: {
    status: 409,
    message: 'このカードはこの発送依頼で既に在庫なし・破損として報告済みです。',
  },
  SHIPPING_COMPENSATION_TOO_LOW: {
    status: 422,
    message: (d) => `補償のコインは、このカードの交換価値（${digits(d.minCoins)}コイン）以上にしてください。`,
  },
};
