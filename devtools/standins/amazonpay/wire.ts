// The Amazon Pay stand-in's wire details: Amazon's timestamps, statuses, prices and error answers.
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { Price, Status } from './index';

/** Amazon Pay's timestamp format, e.g. 20191015T204327Z. */
export function amazonTime(ms = Date.now()): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Accepts both 20191015T204327Z and 2019-10-15T20:43:27Z (the SDK sends the latter in x-amz-pay-date). */
export function fromAmazonTime(value: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : value;
}

export function status(state: string, reasonCode: string | null, reasonDescription: string | null): Status {
  return { state, reasonCode, reasonDescription, lastUpdatedTimestamp: amazonTime() };
}

export function setStatus(
  target: { statusDetails: Status },
  state: string,
  reasonCode: string | null,
  reasonDescription: string | null,
): void {
  target.statusDetails = status(state, reasonCode, reasonDescription);
}

export const yen = (amount: number): Price => ({ amount: String(amount), currencyCode: 'JPY' });

export function amazonError(c: Context, statusCode: number, reasonCode: string, message: string) {
  return c.json({ reasonCode, message }, statusCode as 400);
}

export function notFound(c: Context, what: string) {
  return amazonError(c, 404, 'ResourceNotFound', `The ${what} you requested does not exist.`);
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export function digits(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += String(bytes[i]! % 10);
  return out;
}

export function token(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}
