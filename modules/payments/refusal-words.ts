// The coin shop's refusal words: status and Japanese message of each code (gathered by modules/refusals).
import { jstText, type RefusalWords } from '#modules/kernel';
import { IDEMPOTENCY_REFUSAL_WORDS } from '#modules/idempotency';
import { SELF_EXCLUSION_REFUSAL_WORDS } from '#modules/limits';
import { MAINTENANCE_REFUSAL_WORDS, SALES_STOPPED_REFUSAL_WORDS } from '#modules/shop';
import { yen, type PurchaseRefusalCode } from './rules';
import { FIRST_PURCHASE_ONLY_REASON } from './packs';
import { PAYMENT_METHOD_INFO, isPaymentMethod } from './methods';
import { ORDER_STATUS_LABELS } from './orders';
import { reviewReasonText } from './confirmation';
import type { OrderStatus } from './schema';

/** What is left of this month's cap, said after a cap refusal. */
const capRest = (d: Record<string, unknown>) =>
  Number(d.remainingJpy ?? 0) > 0
    ? `今月はあと${yen(Number(d.remainingJpy))}までご購入いただけます。`
    : '今月はこれ以上ご購入いただけません。';
const methodLabel = (d: Record<string, unknown>) =>
  typeof d.method === 'string' && isPaymentMethod(d.method) ? PAYMENT_METHOD_INFO[d.method].label : 'お支払い先';

export const PAYMENT_REFUSAL_WORDS: RefusalWords<PurchaseRefusalCode> = {
  AGE_DECLARATION_REQUIRED: { status: 409, message: 'ご購入の前に、年齢の確認（18歳以上かどうか）をお願いします。' },
  MONTHLY_CAP_EXCEEDED: {
    status: 422,
    message: (d) => `1か月のご購入上限（${yen(Number(d.capJpy ?? 0))}）を超えるため購入できません。${capRest(d)}`,
  },
  MINOR_CAP_EXCEEDED: {
    status: 422,
    message: (d) =>
      `18歳未満の方の1か月のご購入上限（${yen(Number(d.capJpy ?? 0))}）を超えるため購入できません。${capRest(d)}`,
  },
  FIRST_PURCHASE_ONLY: {
    status: 409,
    message: (d) =>
      d.pendingCheckout
        ? '初回限定パックのお支払いが手続き中です。そのお支払いを完了するか、しばらくしてからお試しください。'
        : `このコインパックは${FIRST_PURCHASE_ONLY_REASON}。ほかのコインパックをお選びください。`,
  },
  PACK_UNAVAILABLE: { status: 404, message: 'このコインパックは現在販売していません。' },
  PACK_OUTSIDE_WINDOW: {
    status: 409,
    message: (d) =>
      d.phase === 'before' && typeof d.startsAt === 'string'
        ? `このコインパックの販売は${jstText(d.startsAt)}（日本時間）からです。販売開始後にお求めいただくか、ほかのコインパックをお選びください。`
        : 'このコインパックの販売期間は終了しました。ほかのコインパックをお選びください。',
  },
  METHOD_UNAVAILABLE: {
    status: 404,
    message: 'このお支払い方法は現在ご利用いただけません。別のお支払い方法をお選びください。',
  },
  PURCHASE_HOLD: {
    status: 403,
    message: (d) =>
      d.reason === 'operator'
        ? 'アカウントの確認が必要なため、現在コインを購入できません。お手数ですがお問い合わせください。'
        : 'お支払いの確認が必要なため、現在コインを購入できません。お手数ですがお問い合わせください。',
  },
  // The same order key again: for another member's order it is simply invalid; for a finished order, say so.
  ORDER_KEY_CONFLICT: {
    status: 409,
    message: (d) =>
      d.status
        ? 'この購入手続きはすでに終了しています。購入履歴をご確認ください。'
        : 'この購入手続きは無効です。コインショップからやり直してください。',
  },
  IDEMPOTENCY_KEY_REUSED: IDEMPOTENCY_REFUSAL_WORDS.IDEMPOTENCY_KEY_REUSED,
  CHECKOUT_IN_PROGRESS: { status: 409, message: 'お支払いページを準備しています。数秒後にもう一度お試しください。' },
  QUOTE_CHANGED: {
    status: 409,
    message: 'ご購入内容が変わりました（価格・コイン数・ボーナス）。お手数ですが、内容をもう一度ご確認ください。',
  },
  SELF_EXCLUDED: SELF_EXCLUSION_REFUSAL_WORDS.SELF_EXCLUDED,
  PURCHASE_LIMIT_REACHED: {
    status: 422,
    message: (d) =>
      `今月の購入上限（${yen(Number(d.limitJpy ?? 0))}）に達しています。${
        Number(d.remainingJpy ?? 0) > 0
          ? `ご自身で設定した上限まで、今月はあと${yen(Number(d.remainingJpy))}です。`
          : 'ご自身で設定した上限のため、今月はこれ以上ご購入いただけません。'
      }`,
  },
  PROVIDER_UNAVAILABLE: {
    status: 503,
    message: (d) =>
      `${methodLabel(d)}に接続できませんでした。時間をおいてもう一度お試しいただくか、別のお支払い方法をお選びください。`,
  },
  // The operators' refunds (npm run shop -- orders:refund).
  ORDER_NOT_FOUND: {
    status: 404,
    message: (d) => (d.orderId ? `注文 ${String(d.orderId)} が見つかりません。` : '注文が見つかりません。'),
  },
  ORDER_NOT_REFUNDABLE: { status: 409, message: 'この注文は支払いが完了していないため返金できません。' },
  PROVIDER_NOT_CONFIGURED: { status: 409, message: 'この決済方法は設定されていません。' },
  ORDER_NOT_IN_REVIEW: {
    status: 409,
    message: (d) =>
      `この注文は確認中ではありません（現在: ${ORDER_STATUS_LABELS[d.status as OrderStatus] ?? String(d.status)}）。ページを読み込み直してください。`,
  },
  REVIEW_DECISION_NOT_ALLOWED: {
    status: 409,
    message: (d) =>
      `この注文は保留の理由（${reviewReasonText(typeof d.reason === 'string' ? d.reason : null)}）に合わないため、その判断はできません。返金で対応してください。`,
  },
  MAINTENANCE: MAINTENANCE_REFUSAL_WORDS.MAINTENANCE,
  SALES_STOPPED: SALES_STOPPED_REFUSAL_WORDS.SALES_STOPPED,
};
