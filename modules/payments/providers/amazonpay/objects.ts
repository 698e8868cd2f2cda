// Amazon Pay objects (only the fields read here), its error answers, and the amounts and idempotency keys it takes.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ProviderError, isRetryableStatus } from '../types';
import type { SdkResponse } from './sdk';

const price = z.object({ amount: z.string(), currencyCode: z.string() });
const statusDetails = z.object({
  state: z.string(),
  reasonCode: z.string().nullish(),
  reasonDescription: z.string().nullish(),
});
const merchantMetadata = z.object({ merchantReferenceId: z.string().nullish() }).nullish();

export const checkoutSessionSchema = z.object({
  checkoutSessionId: z.string(),
  statusDetails,
  chargeId: z.string().nullish(),
  chargePermissionId: z.string().nullish(),
  merchantMetadata,
  paymentDetails: z.object({ chargeAmount: price.nullish() }).nullish(),
  webCheckoutDetails: z.object({ amazonPayRedirectUrl: z.string().nullish() }).nullish(),
});
export const chargeSchema = z.object({
  chargeId: z.string(),
  chargePermissionId: z.string().nullish(),
  chargeAmount: price,
  captureAmount: price.nullish(),
  refundedAmount: price.nullish(),
  merchantMetadata,
  statusDetails,
});
export const refundSchema = z.object({
  refundId: z.string(),
  chargeId: z.string(),
  refundAmount: price,
  statusDetails,
});
export const disputeSchema = z.object({
  disputeId: z.string(),
  chargeId: z.string(),
  statusDetails: z.object({ state: z.string(), resolution: z.string().nullish(), reasonCode: z.string().nullish() }),
});
export const chargePermissionSchema = z.object({ chargePermissionId: z.string(), merchantMetadata, statusDetails });

export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;
export type Charge = z.infer<typeof chargeSchema>;

export const snsEnvelopeSchema = z.object({
  Type: z.string(),
  MessageId: z.string().min(1),
  TopicArn: z.string().min(1),
  Message: z.string(),
  Timestamp: z.string(),
  SignatureVersion: z.string(),
  Signature: z.string().min(1),
  SigningCertURL: z.string().min(1),
  Subject: z.string().optional(),
  SubscribeURL: z.string().optional(),
  Token: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
});
export type SnsEnvelope = z.infer<typeof snsEnvelopeSchema>;

/** The IPN inside an SNS Notification (NotificationVersion V2; older pages spell the keys in camelCase). */
export const ipnSchema = z.object({
  ObjectType: z.string().min(1),
  ObjectId: z.string().min(1),
  ChargePermissionId: z.string().nullish(),
  NotificationType: z.string().nullish(),
  NotificationId: z.string().nullish(),
});

/** An error answer from Amazon Pay, with its HTTP status and reasonCode kept for the adapter's logic. */
export class AmazonPayApiError extends ProviderError {
  constructor(
    message: string,
    retryable: boolean,
    readonly status: number | null,
    readonly reasonCode: string | null,
    cause?: unknown,
  ) {
    super(message, retryable, cause);
    this.name = 'AmazonPayApiError';
  }
}

export function apiError(error: unknown, action: string): AmazonPayApiError {
  const e = error as {
    isAxiosError?: boolean;
    response?: { status?: number; data?: unknown };
    code?: string;
    message?: string;
  } | null;
  const status = e?.response?.status;
  if (typeof status !== 'number') {
    // No HTTP answer: network trouble or a timeout (axios), or the SDK refusing its input (e.g. a bad key).
    const network = e?.isAxiosError === true;
    return new AmazonPayApiError(
      `Amazon Pay ${action}: ${network ? 'network error' : 'request failed'} (${e?.code ?? e?.message ?? String(error)})`,
      network,
      null,
      null,
      error,
    );
  }
  const data = (e?.response?.data ?? {}) as { reasonCode?: unknown; message?: unknown };
  const reasonCode = typeof data.reasonCode === 'string' ? data.reasonCode : null;
  const detail = typeof data.message === 'string' ? data.message : '';
  const retryable = isRetryableStatus(status);
  return new AmazonPayApiError(
    `Amazon Pay ${action}: HTTP ${status} ${reasonCode ?? ''} ${detail}`.trim(),
    retryable,
    status,
    reasonCode,
    error,
  );
}

export function parseBody<S extends z.ZodType>(schema: S, response: SdkResponse, action: string): z.infer<S> {
  const parsed = schema.safeParse(response.data);
  if (!parsed.success) throw new ProviderError(`Amazon Pay ${action}: unexpected response`, false, parsed.error);
  return parsed.data;
}

/**
 * Amazon Pay amounts are decimal strings; JPY has no minor unit, so only whole yen are accepted.
 * @example jpyFromAmazon({ amount: '1000', currencyCode: 'JPY' }) === 1000
 */
export function jpyFromAmazon(p: { amount: string; currencyCode: string }): number {
  if (p.currencyCode !== 'JPY') throw new ProviderError(`Amazon Pay answered in ${p.currencyCode}, not JPY`, false);
  const m = /^(\d{1,12})(?:\.0+)?$/.exec(p.amount.trim());
  if (!m) throw new ProviderError(`Amazon Pay amount ${p.amount} is not a whole number of yen`, false);
  return Number(m[1]);
}

export const jpy = (amountJpy: number) => ({ amount: String(amountJpy), currencyCode: 'JPY' });

/** Amazon idempotency keys: at most 32 characters of [A-Za-z0-9_-], derived so a retry reuses the key. */
export function idempotencyKey(kind: string, ...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\n')).digest('base64url');
  return `${kind}-${digest}`.slice(0, 32);
}
