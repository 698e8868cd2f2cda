// The shop signs beacon receipts with node:crypto (the public log signs every receipt of every page): the same
// RFC 8032 signatures as @noble/curves, which the phone verifies; after a rotation of BEACON_RECEIPT_KEY a
// retired key still signs the receipts of the packs that committed to it, and no other pack's.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { receiptPublicKey, signReceipt, verifyReceiptSignature, type DrawReceipt } from '#modules/fairness';
import { receiptSigners } from './beacon';
import { loadConfig } from './config';

const OLD = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'; // RFC 8032 §7.1, test 1
const NEW = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'; // RFC 8032 §7.1, test 2
const receipt = (i: number): DrawReceipt => ({
  gachaId: 'beacon-pack',
  commitment: 'ab'.repeat(32),
  drawId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  member: '0123456789abcdef',
  slots: [i, i + 1],
  acceptedAt: '2027-01-15T08:30:00.000Z',
  round: 1000 + i,
  afterHead: i > 1 ? 'cd'.repeat(32) : '',
  afterRound: i > 1 ? 999 + i : 0,
});

describe('receiptSigners', () => {
  it('signs exactly as @noble/curves does, verifiable by the committed public key', () => {
    const signers = receiptSigners([NEW]);
    const sign = signers.get(receiptPublicKey(NEW))!;
    for (let i = 1; i <= 20; i++) {
      const signature = sign(receipt(i));
      expect(signature).toBe(signReceipt(receipt(i), NEW));
      expect(verifyReceiptSignature(receipt(i), signature, receiptPublicKey(NEW))).toBe(true);
    }
  });

  it('after a rotation, signs each pack by the key it committed to, and none whose key the shop does not hold', () => {
    const signers = receiptSigners([NEW, OLD]);
    expect(signers.get(receiptPublicKey(OLD))!(receipt(3))).toBe(signReceipt(receipt(3), OLD));
    expect(signers.get(receiptPublicKey(NEW))!(receipt(3))).toBe(signReceipt(receipt(3), NEW));
    expect(signers.get(receiptPublicKey('11'.repeat(32)))).toBeUndefined();
  });

  it('reads the retired keys from BEACON_RECEIPT_KEYS_RETIRED, and refuses one that is not a key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-beacon-keys-'));
    expect(loadConfig({ DATA_DIR: dir }).BEACON_RECEIPT_KEYS_RETIRED).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: dir, BEACON_RECEIPT_KEYS_RETIRED: ` ${OLD}, ${NEW} ` }).BEACON_RECEIPT_KEYS_RETIRED,
    ).toEqual([OLD, NEW]);
    expect(() => loadConfig({ DATA_DIR: dir, BEACON_RECEIPT_KEYS_RETIRED: 'not-a-key' })).toThrow(
      /BEACON_RECEIPT_KEYS_RETIRED/,
    );
  });
});
