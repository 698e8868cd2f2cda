// Amazon SNS, which carries Amazon Pay's IPNs: the signature check (certificate only from an allowed
// host), the message's age and headers, and confirming a subscription.
import { verify as verifySignature, X509Certificate, type KeyObject } from 'node:crypto';
import { ProviderError, WebhookRejected } from '../types';
import type { WebhookRequest } from '../types';
import type { AmazonPayContext } from './context';
import { snsEnvelopeSchema, type SnsEnvelope } from './objects';

/** Default SNS host: the regional SNS endpoints (the same pattern as AWS's own message validators). */
export const SNS_HOST_PATTERN = /^sns\.[a-z0-9-]{3,}\.amazonaws\.com(\.cn)?$/i;

/** The SNS string to sign: the documented keys, each as "Key\nValue\n", in this order, when present. */
export function snsStringToSign(message: Partial<Record<string, string>>): string {
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  let out = '';
  for (const key of keys) {
    const value = message[key];
    if (value !== undefined) out += `${key}\n${value}\n`;
  }
  return out;
}

const MAX_CERTIFICATE_BYTES = 16_384;

function trustedSnsUrl(ctx: AmazonPayContext, raw: string, requirePem: boolean): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (requirePem && !url.pathname.endsWith('.pem')) return false;
  if (ctx.trustedOrigins.has(url.origin)) return true;
  return url.protocol === 'https:' && url.port === '' && ctx.snsHost.test(url.hostname);
}

async function certificateKey(ctx: AmazonPayContext, certUrl: string): Promise<KeyObject> {
  const now = ctx.clock();
  const cached = ctx.certificates.get(certUrl);
  if (cached && cached.validTo > now) return cached.key;
  let response: Response;
  try {
    response = await ctx.httpFetch(certUrl, { redirect: 'error', signal: AbortSignal.timeout(ctx.timeoutMs) });
  } catch (error) {
    // SNS retries a delivery we answer with 5xx; the message may well be genuine.
    throw new ProviderError('Amazon Pay IPN: could not download the SNS signing certificate', true, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    if (response.status >= 500)
      throw new ProviderError(`Amazon Pay IPN: certificate host answered ${response.status}`, true);
    throw new WebhookRejected(`SNS signing certificate not available (${response.status})`, 401);
  }
  const pem = await response.text();
  if (pem.length > MAX_CERTIFICATE_BYTES) throw new WebhookRejected('SNS signing certificate is too large', 401);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    throw new WebhookRejected('SNS signing certificate is unreadable', 401);
  }
  const validFrom = Date.parse(cert.validFrom);
  const validTo = Date.parse(cert.validTo);
  if (!(validFrom <= now && now <= validTo)) throw new WebhookRejected('SNS signing certificate is not valid now', 401);
  if (ctx.certificates.size >= 16) ctx.certificates.delete(ctx.certificates.keys().next().value!);
  ctx.certificates.set(certUrl, { key: cert.publicKey, validTo });
  return cert.publicKey;
}

/** The SNS message a request carries, once its headers, topic, age and signature are checked. */
export async function verifiedEnvelope(ctx: AmazonPayContext, request: WebhookRequest): Promise<SnsEnvelope> {
  let json: unknown;
  try {
    json = JSON.parse(request.rawBody);
  } catch {
    throw new WebhookRejected('body is not JSON', 400);
  }
  const parsed = snsEnvelopeSchema.safeParse(json);
  if (!parsed.success) throw new WebhookRejected('not a signed Amazon SNS message', 400);
  const env = parsed.data;
  // SNS names the message in headers too; they must be there and agree with the signed body.
  const typeHeader = request.headers.get('x-amz-sns-message-type');
  const idHeader = request.headers.get('x-amz-sns-message-id');
  if (!typeHeader || !idHeader)
    throw new WebhookRejected('missing x-amz-sns-message-type / x-amz-sns-message-id header', 400);
  const topicHeader = request.headers.get('x-amz-sns-topic-arn');
  if (typeHeader !== env.Type || idHeader !== env.MessageId || (topicHeader !== null && topicHeader !== env.TopicArn)) {
    throw new WebhookRejected('SNS headers do not match the message', 400);
  }
  if (
    env.Type !== 'Notification' &&
    env.Type !== 'SubscriptionConfirmation' &&
    env.Type !== 'UnsubscribeConfirmation'
  ) {
    throw new WebhookRejected(`unknown SNS message type ${env.Type}`, 400);
  }
  if (env.Type !== 'Notification' && (!env.SubscribeURL || !env.Token))
    throw new WebhookRejected('SNS confirmation without SubscribeURL/Token', 400);
  if (env.SignatureVersion !== '1' && env.SignatureVersion !== '2')
    throw new WebhookRejected(`unsupported SNS SignatureVersion ${env.SignatureVersion}`, 400);
  if (ctx.options.snsTopicArns && !ctx.options.snsTopicArns.includes(env.TopicArn))
    throw new WebhookRejected('unexpected SNS topic', 403);
  // The certificate is only fetched from SNS itself (or the configured stand-in): a forged message could
  // otherwise name a certificate of its own.
  if (!trustedSnsUrl(ctx, env.SigningCertURL, true))
    throw new WebhookRejected('SigningCertURL is not an Amazon SNS certificate URL', 403);
  const sentAt = Date.parse(env.Timestamp);
  if (Number.isNaN(sentAt)) throw new WebhookRejected('SNS Timestamp is unreadable', 400);
  const age = ctx.clock() - sentAt;
  if (age > ctx.maxAgeMs) throw new WebhookRejected('SNS message is too old', 400);
  if (age < -300_000) throw new WebhookRejected('SNS message is from the future', 400);
  const key = await certificateKey(ctx, env.SigningCertURL);
  const algorithm = env.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
  let ok = false;
  try {
    ok = verifySignature(
      algorithm,
      Buffer.from(snsStringToSign(env), 'utf8'),
      key,
      Buffer.from(env.Signature, 'base64'),
    );
  } catch {
    ok = false;
  }
  if (!ok) throw new WebhookRejected('SNS signature does not verify', 401);
  return env;
}

/** Confirms an SNS subscription by GETting its SubscribeURL (only on an allowed host). */
export async function confirmSubscription(ctx: AmazonPayContext, env: SnsEnvelope): Promise<boolean> {
  const url = env.SubscribeURL!;
  if (
    env.Type !== 'SubscriptionConfirmation' ||
    ctx.options.confirmSubscriptions === false ||
    !trustedSnsUrl(ctx, url, false)
  )
    return false;
  let response: Response;
  try {
    response = await ctx.httpFetch(url, { redirect: 'error', signal: AbortSignal.timeout(ctx.timeoutMs) });
  } catch (error) {
    throw new ProviderError('Amazon Pay IPN: could not confirm the SNS subscription', true, error);
  }
  await response.body?.cancel();
  if (response.status >= 500) throw new ProviderError(`Amazon Pay IPN: SubscribeURL answered ${response.status}`, true);
  return response.ok;
}
