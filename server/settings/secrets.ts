// The shop's own secrets: the key that signs sessions and the keys that seal members' addresses. On a
// developer's machine both are generated once into DATA_DIR, so `npm start` needs no secret in the
// repository; an https shop must name its address keys.
import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { declareSettings } from '#modules/kernel';
import { ConfigError } from './error';

/** One key of ADDRESS_ENCRYPTION_KEYS: its id (kept beside every sealed address) and its 32 bytes. */
export interface AddressKeySetting {
  readonly id: string;
  readonly secret: Buffer;
}

export const secretSettings = declareSettings({
  title: 'Secrets',
  shape: {
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * The keys that seal members' addresses at rest (AES-256-GCM, docs/decisions/019): comma-separated
     * `keyId:base64` of 32 random bytes each; the first seals, every one opens. Unset: a key generated
     * once into DATA_DIR/address-keys (a developer's machine); required on an https origin.
     */
    ADDRESS_ENCRYPTION_KEYS: z
      .string()
      .max(10_000)
      .transform((text, context) => {
        const read = readAddressKeys(text);
        if (typeof read === 'string') {
          context.addIssue({ code: 'custom', message: read });
          return z.NEVER;
        }
        return read;
      })
      .optional(),
  },
  docs: {
    AUTH_SECRET: {
      default: 'generated once into `DATA_DIR/auth-secret`',
      meaning: 'signs sessions; **set it (≥ 32 characters) in production**, and keep it out of the repository',
    },
    ADDRESS_ENCRYPTION_KEYS: {
      default: 'generated once into `DATA_DIR/address-keys` (not on https)',
      allowed: '`keyId:base64` of 32 random bytes, comma-separated',
      secret: true,
      meaning:
        "the keys that seal members' addresses (AES-256-GCM); the first seals, every one opens. **Required on an " +
        "https shop**; make one with `node -e \"console.log('k1:' + require('crypto').randomBytes(32).toString('base64'))\"`, " +
        'keep it apart from backups. Rotation: `docs/decisions/019-address-encryption.md`',
    },
  },
  // A key in DATA_DIR sits beside the database it protects: good enough for a developer's machine only.
  problems: (values, { httpsOrigin }) =>
    !values.ADDRESS_ENCRYPTION_KEYS && httpsOrigin
      ? [
          'ADDRESS_ENCRYPTION_KEYS: required on an https shop (住所の暗号鍵を設定してください): ' +
            "keyId:base64 of 32 random bytes, e.g. `node -e \"console.log('k1:' + crypto.randomBytes(32).toString('base64'))\"` (docs/decisions/019)",
        ]
      : [],
});

/**
 * The auth secret, when not given, is generated once and kept in DATA_DIR/auth-secret (mode 600) so
 * `npm start` works on a fresh machine without a secret in the repository; production sets AUTH_SECRET.
 */
export function readOrCreateLocalSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: fall through and create it
  }
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

const ADDRESS_KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const ADDRESS_KEY_BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;
const ADDRESS_KEYS_FORMAT = 'must be keyId:base64 pairs (32 random bytes each), comma-separated; the first seals';

/** `keyId:base64,…` read into keys, or what is wrong with it (the message names no key material). */
function readAddressKeys(text: string): AddressKeySetting[] | string {
  const keys: AddressKeySetting[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    const [id, material, ...rest] = entry.split(':');
    if (!id || !material || rest.length > 0) return ADDRESS_KEYS_FORMAT;
    if (!ADDRESS_KEY_ID.test(id)) return `key id '${id}' must be 1–32 letters, digits, - or _`;
    if (keys.some((k) => k.id === id)) return `key id '${id}' appears twice`;
    const secret = Buffer.from(material, 'base64');
    if (!ADDRESS_KEY_BASE64.test(material) || secret.length !== 32)
      return `key '${id}' must be 32 bytes in base64 (44 characters)`;
    keys.push({ id, secret });
  }
  return keys;
}

/** The developer's key, generated once into DATA_DIR/address-keys (mode 600) in the setting's own format. */
export function readOrCreateLocalAddressKey(dataDir: string): AddressKeySetting[] {
  const file = path.join(dataDir, 'address-keys');
  fs.mkdirSync(dataDir, { recursive: true });
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    // first start: fall through and create it
  }
  if (text === undefined) {
    text = `local:${crypto.randomBytes(32).toString('base64')}`;
    // 'wx': two processes starting together keep the first one's key, never two different keys.
    try {
      fs.writeFileSync(file, text + '\n', { mode: 0o600, flag: 'wx' });
    } catch {
      text = fs.readFileSync(file, 'utf8').trim();
    }
  }
  const read = readAddressKeys(text);
  if (typeof read === 'string') throw new ConfigError(`${file}: ${read} (it is written like ADDRESS_ENCRYPTION_KEYS)`);
  return read;
}
