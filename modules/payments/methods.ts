// The payment methods as members see them: names, the return page each provider sends them back to.
// Shared by the server and the pages (no server-only code here).
import { PAYMENT_METHODS, type PaymentMethod } from './providers/types';

export { PAYMENT_METHODS, type PaymentMethod };

export interface PaymentMethodInfo {
  method: PaymentMethod;
  label: string;
  /** One line under the name on the method list. */
  note: string;
  /** The specification's return page for this provider (section 2). */
  returnPath: string;
}

export const PAYMENT_METHOD_INFO: Record<PaymentMethod, PaymentMethodInfo> = {
  stripe: {
    method: 'stripe',
    label: 'クレジットカード',
    note: 'Visa / Mastercard / JCB / American Express',
    returnPath: '/shop/backfrompurchase',
  },
  paypay: {
    method: 'paypay',
    label: 'PayPay',
    note: 'PayPay残高・PayPayカードで支払う',
    returnPath: '/shop/backfrompaypay',
  },
  paidy: {
    method: 'paidy',
    label: 'あと払いペイディ',
    note: 'メールアドレスと携帯番号だけで、翌月まとめてお支払い',
    returnPath: '/shop/backfrompaidy',
  },
  merpay: {
    method: 'merpay',
    label: 'メルペイ',
    note: 'メルカリの売上金・ポイントも使えます',
    returnPath: '/shop/backfrommerpay',
  },
  amazonpay: {
    method: 'amazonpay',
    label: 'Amazon Pay',
    note: 'Amazonアカウントに登録済みのお支払い方法で',
    returnPath: '/shop/backfromamazonpay',
  },
  sandbox: {
    method: 'sandbox',
    label: 'テスト決済（サンドボックス）',
    note: '開発・デモ用。実際の請求は発生しません',
    returnPath: '/shop/backfrompurchase',
  },
};

/** The order methods are listed in on the shop page. */
export const METHOD_ORDER: PaymentMethod[] = ['stripe', 'paypay', 'paidy', 'merpay', 'amazonpay', 'sandbox'];

/** @example isPaymentMethod('paypay') === true */
export const isPaymentMethod = (value: string): value is PaymentMethod =>
  (PAYMENT_METHODS as readonly string[]).includes(value);

/** The /app/checkout/{name} names (the native app calls card payments 'stripe'); linelink is not a payment. */
export const APP_CHECKOUT_NAMES = ['paidy', 'merpay', 'paypay', 'stripe', 'linelink', 'amazonpay'] as const;

/**
 * The analytics label of a purchase (specification section 9): 'paid coin', plus a bonus suffix
 * when free coins came with it.
 * @example purchaseEventLabel(0) === 'paid coin'; purchaseEventLabel(50) === 'paid coin + 50 bonus coin'
 */
export const purchaseEventLabel = (freeCoins: number) =>
  freeCoins > 0 ? `paid coin + ${freeCoins} bonus coin` : 'paid coin';
