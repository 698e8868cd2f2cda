// Sealing: a round trip, and every way a value must fail to open (wrong key, wrong place, altered,
// unknown key), plus rotation (the first key seals, older keys still open).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AddressSealError, openJson, sealJson, sealedKeyId, type AddressKeyring } from './sealing';

const key = (id: string) => ({ id, secret: randomBytes(32) });
const k1 = key('k1');
const k2 = key('k2');
const address = { name: '山田 太郎', postalCode: '1000001', phone: '090-1234-5678' };
const place = 'member-address:member-a:row-1';

function failure(run: () => unknown): AddressSealError {
  try {
    run();
  } catch (error) {
    if (error instanceof AddressSealError) return error;
    throw error;
  }
  throw new Error('it opened');
}

describe('sealJson and openJson', () => {
  it('round-trips, names its key and version, and shows none of the plaintext', () => {
    const { sealed, keyId } = sealJson([k1], address, place);
    expect(keyId).toBe('k1');
    expect(sealed).toMatch(/^a1\.k1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(sealedKeyId(sealed)).toBe('k1');
    expect(openJson([k1], sealed, place)).toEqual(address);
    // Base64 shows short digit runs such as '090' by chance, so the plain text is looked for in the
    // decoded bytes (and the text, for pieces long enough not to turn up by chance).
    const bytes = Buffer.concat(
      sealed
        .split('.')
        .slice(2)
        .map((part) => Buffer.from(part, 'base64url')),
    );
    for (const plain of ['山田', '1000001', '090-1234']) expect(bytes.includes(Buffer.from(plain, 'utf8'))).toBe(false);
    for (const plain of ['山田', '1000001', Buffer.from('山田').toString('base64')])
      expect(sealed).not.toContain(plain);
    // A fresh IV each time: the same address never seals to the same text.
    expect(sealJson([k1], address, place).sealed).not.toBe(sealed);
  });

  it('pads, so short and longer addresses seal to the same length', () => {
    const short = sealJson([k1], { name: 'A' }, place).sealed;
    const longer = sealJson([k1], { name: 'A'.repeat(30) }, place).sealed;
    expect(short.length).toBe(longer.length);
  });

  it('does not open with another key of the same id, for another place, or altered', () => {
    const { sealed } = sealJson([k1], address, place);
    expect(failure(() => openJson([{ id: 'k1', secret: randomBytes(32) }], sealed, place)).reason).toBe(
      'not-authentic',
    );
    // Copied to another member's row: the AAD differs.
    expect(failure(() => openJson([k1], sealed, 'member-address:member-b:row-1')).reason).toBe('not-authentic');
    expect(failure(() => openJson([k1], sealed, 'member-address:member-a:row-2')).reason).toBe('not-authentic');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    parts[3] = flipped.toString('base64url');
    expect(failure(() => openJson([k1], parts.join('.'), place)).reason).toBe('not-authentic');
    // The key id is authenticated too: relabelled to another key of the ring, it does not open.
    expect(failure(() => openJson([k2, k1], sealed.replace('.k1.', '.k2.'), place)).reason).toBe('not-authentic');
    expect(failure(() => openJson([k1], 'a1.k1.x', place)).reason).toBe('malformed');
    expect(failure(() => openJson([k1], 'plain text', place)).reason).toBe('malformed');
  });

  it('says which key is missing', () => {
    const { sealed } = sealJson([k1], address, place);
    const missing = failure(() => openJson([k2], sealed, place));
    expect(missing.reason).toBe('unknown-key');
    expect(missing.message).toContain("'k1'");
  });

  it('rotates: the first key seals, the older keys still open', () => {
    const old = sealJson([k1], address, place).sealed;
    const ring: AddressKeyring = [k2, k1];
    expect(openJson(ring, old, place)).toEqual(address);
    const resealed = sealJson(ring, openJson(ring, old, place), place);
    expect(resealed.keyId).toBe('k2');
    expect(openJson([k2], resealed.sealed, place)).toEqual(address);
    expect(() => sealJson([], address, place)).toThrow(/empty/);
  });
});
