// The coin shop's settings (decision 065): the purchase caps, open checkouts, the sandbox, and each real
// provider's keys (a method without keys is not offered; docs/operators.md "Keys for each real provider").
import fs from 'node:fs';
import { z } from 'zod';
import { booleanFlag, declareSettings } from '#modules/kernel';

// A DNS host name with an optional port, as Merpay's SDK takes its hosts (it adds https:// itself).
const merpayHost =
  /^(?=.{1,253}(?::\d{1,5})?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

const yenCap = z.coerce.number().int().max(100_000_000);

/**
 * PAYMENT_SANDBOX resolved: only a developer's own machine gets it by default, an http origin on a loopback host.
 * @example paymentSandboxOf(undefined, 'http://localhost:3000') // true
 */
export function paymentSandboxOf(setting: boolean | undefined, publicOrigin: string): boolean {
  return setting ?? /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(publicOrigin);
}

export const paymentsSettings = declareSettings({
  title: 'The coin shop and payments',
  shape: {
    /** Monthly purchase cap per member in JPY (Japan time calendar month). */
    PURCHASE_MONTHLY_CAP_JPY: yenCap.min(1).default(500_000),
    /** Monthly purchase cap for members who declared they are under 18. */
    MINOR_PURCHASE_MONTHLY_CAP_JPY: yenCap.min(0).default(10_000),
    /** Minutes a started checkout may take before it is expired (its amount counts against the cap meanwhile). */
    CHECKOUT_EXPIRY_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
    /**
     * The sandbox payment method and the local stand-ins of every provider (development, demo, tests).
     * Default: on for http://localhost (or 127.0.0.1) origins, a developer's machine; off otherwise.
     */
    PAYMENT_SANDBOX: booleanFlag.optional(),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_… or sk_test_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    PAYPAY_API_KEY: z.string().min(8).optional(),
    PAYPAY_API_SECRET: z.string().min(8).optional(),
    PAYPAY_MERCHANT_ID: z.string().min(1).max(100).optional(),
    /** true: PayPay's production API; otherwise its sandbox. */
    PAYPAY_PRODUCTION: booleanFlag.default(false),
    AMAZONPAY_PUBLIC_KEY_ID: z
      .string()
      .regex(/^(SANDBOX-|LIVE-)?[A-Z0-9]{10,40}$/, 'must be the Amazon Pay public key id (e.g. LIVE-AEXAMPLE…)')
      .optional(),
    /** The PEM private key itself, or use AMAZONPAY_PRIVATE_KEY_FILE. */
    AMAZONPAY_PRIVATE_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
    AMAZONPAY_PRIVATE_KEY_FILE: z
      .string()
      .min(1)
      .refine((file) => fs.existsSync(file), 'file not found')
      .optional(),
    AMAZONPAY_STORE_ID: z
      .string()
      .startsWith('amzn1.application-oa2-client.', 'must be the Amazon Pay store id (amzn1.application-oa2-client.…)')
      .optional(),
    /** Comma-separated SNS topic ARNs whose IPNs are accepted (recommended). */
    AMAZONPAY_SNS_TOPIC_ARNS: z.string().optional(),
    PAIDY_SECRET_KEY: z
      .string()
      .regex(/^sk_(live|test)_\w+$/, 'must be a Paidy secret key (sk_live_… or sk_test_…)')
      .optional(),
    PAIDY_PUBLIC_KEY: z
      .string()
      .regex(/^pk_(live|test)_\w+$/, 'must be a Paidy public key (pk_live_… or pk_test_…)')
      .optional(),
    /** Merpay's API host name from the contract (no scheme or path); the adapter calls https://<host>/v1/…. */
    MERPAY_API_HOST: z
      .string()
      .regex(merpayHost, 'must be a host name without scheme or path (e.g. api.example.jp)')
      .optional(),
    /** Merpay's authentication host name; tokens come from https://<host>/jp/v1/token. */
    MERPAY_AUTH_HOST: z
      .string()
      .regex(merpayHost, 'must be a host name without scheme or path (e.g. auth.example.jp)')
      .optional(),
    /** OAuth2 client credentials Merpay issues for the Online payments API. */
    MERPAY_CLIENT_ID: z.string().min(1).max(200).optional(),
    MERPAY_CLIENT_SECRET: z.string().min(8).max(500).optional(),
  },
  docs: {
    PURCHASE_MONTHLY_CAP_JPY: {
      meaning: 'coin purchases per member per calendar month (Japan time), checkouts still open included',
    },
    MINOR_PURCHASE_MONTHLY_CAP_JPY: { meaning: 'the same for members who declared they are under 18' },
    CHECKOUT_EXPIRY_MINUTES: {
      meaning: 'an unfinished checkout is asked once more, then canceled and expired (`payments.expire-orders`)',
    },
    PAYMENT_SANDBOX: {
      default: '`true` for http origins on this machine, `false` otherwise',
      meaning:
        'the sandbox payment method and local stand-ins of every provider (docs/features.md "Coin shop and payments") ' +
        'and the developer pages such as `/dev/outbox` (from this machine only); **never on a real shop**',
    },
    STRIPE_SECRET_KEY: { meaning: 'クレジットカード (Stripe Checkout): the secret key' },
    STRIPE_WEBHOOK_SECRET: {
      meaning: 'the signing secret of the webhook `https://<shop>/api/webhooks/stripe`',
    },
    PAYPAY_API_KEY: { meaning: 'PayPay: the API key (with `PAYPAY_API_SECRET` and `PAYPAY_MERCHANT_ID`)' },
    PAYPAY_API_SECRET: { meaning: 'PayPay: the API secret' },
    PAYPAY_MERCHANT_ID: { meaning: 'PayPay: the merchant id' },
    PAYPAY_PRODUCTION: { meaning: "`true`: PayPay's production API; otherwise its sandbox" },
    AMAZONPAY_PUBLIC_KEY_ID: { meaning: 'Amazon Pay: the public key id' },
    AMAZONPAY_PRIVATE_KEY: {
      meaning: 'Amazon Pay: the PEM private key itself (or `AMAZONPAY_PRIVATE_KEY_FILE`)',
    },
    AMAZONPAY_PRIVATE_KEY_FILE: {
      allowed: 'a path to an existing file',
      meaning: 'Amazon Pay: a file holding the PEM private key',
    },
    AMAZONPAY_STORE_ID: { meaning: 'Amazon Pay: the store id' },
    AMAZONPAY_SNS_TOPIC_ARNS: {
      allowed: 'comma-separated SNS topic ARNs',
      meaning: 'Amazon Pay: the SNS topics whose IPNs are accepted (recommended)',
    },
    PAIDY_SECRET_KEY: { meaning: 'あと払いペイディ: the secret key' },
    PAIDY_PUBLIC_KEY: { meaning: 'あと払いペイディ: the public key' },
    MERPAY_API_HOST: {
      meaning: 'メルペイ: the API host name from the contract; the adapter calls `https://<host>/v1/…`',
    },
    MERPAY_AUTH_HOST: {
      meaning: 'メルペイ: the authentication host name; tokens come from `https://<host>/jp/v1/token`',
    },
    MERPAY_CLIENT_ID: { meaning: 'メルペイ: the OAuth2 client id for the Online payments API' },
    MERPAY_CLIENT_SECRET: { meaning: 'メルペイ: the OAuth2 client secret' },
  },
});
