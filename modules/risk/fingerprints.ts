// Keyed fingerprints: HMAC-SHA-256 of a normalised value under a key derived from AUTH_SECRET, so the
// same address, phone number or device gives the same key while the table says nothing about the
// value itself (a plain SHA-256 of a phone number is guessed in minutes).
import { createHmac } from 'node:crypto';
import type { FingerprintKind } from './schema';

/** The fingerprint key of a shop, derived from its AUTH_SECRET (stable across restarts and instances). */
export const fingerprintKeyOf = (authSecret: string): Buffer =>
  createHmac('sha256', authSecret).update('oripa-risk-fingerprint-v1').digest();

/** NFKC, lower case, no spaces, hyphens or long-vowel dashes: 「１－２－３」 and "1-2-3" read alike. */
export const normaliseText = (value: string): string =>
  value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u2010-\u2015\u2212\u30fc\uff70\-ー－‐]/g, '');

/** The digits of a phone number, a leading +81 read as 0. */
export const normalisePhone = (value: string): string => {
  const digits = value.normalize('NFKC').replace(/\D/g, '');
  return digits.startsWith('81') && digits.length >= 11 ? `0${digits.slice(2)}` : digits;
};

/** An address without the recipient's name: the same place under another name is the same place. */
export const normaliseAddress = (a: {
  postalCode: string;
  prefecture: string;
  city: string;
  town: string;
  building: string | null;
}): string => [a.postalCode, a.prefecture, a.city, a.town, a.building ?? ''].map(normaliseText).join('|');

/** A device as the sessions see it: the client address and the browser. */
export const normaliseDevice = (ip: string, userAgent: string): string =>
  `${ip.trim().toLowerCase()}|${userAgent.trim()}`;

/** @example fingerprint(key, 'phone', normalisePhone('090-1234-5678')) */
export const fingerprint = (key: Buffer, kind: FingerprintKind, normalised: string): string =>
  createHmac('sha256', key).update(`${kind}\u0000${normalised}`).digest('base64url');
