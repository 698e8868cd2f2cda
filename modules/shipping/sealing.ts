// Sealing personal data at rest: AES-256-GCM under a keyring (the first key seals, every key opens),
// bound by authenticated data to where the value belongs (a member's row, a shipping request), so a
// value copied to another row or member does not open (docs/decisions/019).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One key: its id (written in every sealed value) and 32 secret bytes. */
export interface AddressKey {
  readonly id: string;
  readonly secret: Uint8Array;
}

/** ADDRESS_ENCRYPTION_KEYS read: the first key seals, every key opens. */
export type AddressKeyring = readonly AddressKey[];

/** The format's version: the first part of every sealed value, also authenticated. */
const SEAL_VERSION = 'a1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Plaintext is padded to a multiple of this many bytes, so the length says little about the address. */
const PAD_TO = 64;

/** A sealed value that does not open: unknown key, wrong key, wrong place, or altered. Not a member's mistake. */
export class AddressSealError extends Error {
  constructor(
    message: string,
    readonly reason: 'malformed' | 'unknown-key' | 'not-authentic',
  ) {
    super(message);
    this.name = 'AddressSealError';
  }
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function sealingKey(keyring: AddressKeyring): AddressKey {
  const key = keyring[0];
  if (!key) throw new Error('the address keyring is empty (ADDRESS_ENCRYPTION_KEYS)');
  if (key.secret.length !== 32) throw new Error(`address key '${key.id}' is not 32 bytes`);
  return key;
}

const additionalData = (keyId: string, context: string) =>
  Buffer.from(`oripa-address\u0000${SEAL_VERSION}\u0000${keyId}\u0000${context}`, 'utf8');

/**
 * Seals a JSON value for one place (`context`, e.g. `member-address:<member>:<row>`), under the
 * keyring's first key: `a1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts).
 * @example const { sealed, keyId } = sealJson(keyring, { name: '山田 太郎' }, `member-address:${memberId}:${id}`)
 */
export function sealJson(keyring: AddressKeyring, value: unknown, context: string): { sealed: string; keyId: string } {
  const key = sealingKey(keyring);
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  // JSON ignores trailing spaces, so padding needs no length field.
  const plaintext = Buffer.concat([json, Buffer.alloc((PAD_TO - (json.length % PAD_TO)) % PAD_TO, 0x20)]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.secret, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(key.id, context));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    sealed: [SEAL_VERSION, key.id, b64(iv), b64(ciphertext), b64(cipher.getAuthTag())].join('.'),
    keyId: key.id,
  };
}

/** The key id a sealed value names (without opening it), or null for a value not in this format. */
export function sealedKeyId(sealed: string): string | null {
  const parts = sealed.split('.');
  return parts.length === 5 && parts[0] === SEAL_VERSION ? parts[1]! : null;
}

/**
 * Opens a value sealed for `context`; throws AddressSealError when the key is not in the keyring,
 * the value was altered, or it was sealed for another place.
 * @example const address = openJson(keyring, row.sealed, `member-address:${memberId}:${row.id}`)
 */
export function openJson(keyring: AddressKeyring, sealed: string, context: string): unknown {
  const parts = sealed.split('.');
  if (parts.length !== 5 || parts[0] !== SEAL_VERSION)
    throw new AddressSealError('sealed address: unknown format', 'malformed');
  const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  const key = keyring.find((k) => k.id === keyId);
  if (!key)
    throw new AddressSealError(
      `sealed address: key '${keyId}' is not in ADDRESS_ENCRYPTION_KEYS (keep old keys after a rotation until addresses:rekey has run)`,
      'unknown-key',
    );
  const tagBytes = Buffer.from(tag, 'base64url');
  const ivBytes = Buffer.from(iv, 'base64url');
  if (tagBytes.length !== TAG_BYTES || ivBytes.length !== IV_BYTES)
    throw new AddressSealError('sealed address: unknown format', 'malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.secret, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(keyId, context));
    decipher.setAuthTag(tagBytes);
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return JSON.parse(plaintext.toString('utf8'));
  } catch {
    throw new AddressSealError(
      `sealed address: does not open with key '${keyId}' for this place (altered, or copied from another row)`,
      'not-authentic',
    );
  }
}
