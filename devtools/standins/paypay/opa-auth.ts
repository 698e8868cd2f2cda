// The PayPay stand-in's check of the OPA-Auth HMAC Authorization header.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { EPOCH_TOLERANCE_SECONDS } from './state';

interface AuthCheck {
  header: string;
  method: string;
  path: string;
  contentType: string;
  body: string;
  apiKey: string;
  apiSecret: string;
  now: number;
}

/** Returns why the request's OPA-Auth header does not check out, or null when it does. */
export function checkAuthorization(check: AuthCheck): string | null {
  const prefix = 'hmac OPA-Auth:';
  if (!check.header.startsWith(prefix)) return 'Missing or malformed Authorization header';
  const parts = check.header.slice(prefix.length).split(':');
  if (parts.length !== 5) return 'Malformed OPA-Auth header';
  const [apiKey, macData, nonce, epochText, hash] = parts as [string, string, string, string, string];
  if (!safeEqual(apiKey, check.apiKey)) return 'Invalid API key';
  if (!/^\d{1,12}$/.test(epochText) || Math.abs(check.now - Number(epochText)) >= EPOCH_TOLERANCE_SECONDS)
    return 'Epoch is too far from server time';
  if (nonce.length === 0) return 'Missing nonce';
  let contentType = 'empty';
  let expectedHash = 'empty';
  if (check.body.length > 0) {
    contentType = check.contentType;
    expectedHash = createHash('md5').update(contentType).update(check.body).digest('base64');
  }
  if (!safeEqual(hash, expectedHash)) return 'Body hash does not match';
  const expectedMac = createHmac('sha256', check.apiSecret)
    .update([check.path, check.method, nonce, epochText, contentType, expectedHash].join('\n'))
    .digest('base64');
  if (!safeEqual(macData, expectedMac)) return 'Signature does not match';
  return null;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
