// verifyBeacon on real quicknet beacons taken from drand's own repositories, and every way a beacon can be
// wrong refused with its own reason (never a throw).
import { describe, expect, it } from 'vitest';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { QUICKNET, type ChainInfo } from './chain-info';
import { QUICKNET_DST, roundMessage, verifyBeacon, type BeaconFailure } from './verify';

/** A relay's v1 answer carries the randomness, which drand defines as SHA-256 of the signature. */
const withRandomness = (round: number, signature: string) => ({
  round,
  signature,
  randomness: bytesToHex(sha256(hexToBytes(signature))),
});

// Real quicknet beacons (chain 52db9ba7…, scheme bls-unchained-g1-rfc9380):
// round 42 — drand/drand-docs, docs/developer/06-HTTP-API.md, the answer of
//   `curl -s api.drand.sh/v2/beacons/quicknet/rounds/42` (v2 answers leave the randomness out);
// round 12040883 — drand/tlock, tlock_test.go, TestDecryptText ("With valid network": the signature that
//   decrypts a ciphertext locked to quicknet round 12040883).
const ROUND_42 = withRandomness(
  42,
  '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a',
);
const ROUND_12040883 = withRandomness(
  12040883,
  '929906c959032ab363c9f26570d215d66f5c06cb0c44fe508c12bb5839f04ec895bb6868e5b9ff13ab289bdb5266b394',
);

const failureOf = (chain: Pick<ChainInfo, 'schemeID' | 'public_key'>, beacon: unknown, expectedRound?: number) => {
  const result = verifyBeacon(chain, beacon, expectedRound);
  if (result.valid) throw new Error('expected a refusal');
  expect(result.detail).not.toBe('');
  return result.failure;
};

describe('verifyBeacon on real quicknet beacons', () => {
  it('accepts rounds 42 and 12040883 and answers their randomness', () => {
    expect(verifyBeacon(QUICKNET, ROUND_42)).toEqual({ valid: true, round: 42, randomness: ROUND_42.randomness });
    expect(verifyBeacon(QUICKNET, ROUND_12040883, 12040883)).toEqual({
      valid: true,
      round: 12040883,
      randomness: '173df1f57805453a8d2015268205d68147de12cafc2f451f7bc6adadca3571b3',
    });
  });

  it('reads hex in either case', () => {
    const shouted = {
      ...ROUND_42,
      signature: ROUND_42.signature.toUpperCase(),
      randomness: ROUND_42.randomness.toUpperCase(),
    };
    expect(verifyBeacon({ ...QUICKNET, public_key: QUICKNET.public_key.toUpperCase() }, shouted).valid).toBe(true);
  });

  it('signs SHA-256 of the round as 8 big-endian bytes, hashed with RFC 9380’s G1 suite', () => {
    expect(bytesToHex(roundMessage(1))).toBe('cd2662154e6d76b2b2b92e70c0cac3ccf534f9b74eb5b89819ec509083d00a50');
    expect(bytesToHex(roundMessage(256))).toBe(bytesToHex(sha256(hexToBytes('0000000000000100'))));
    expect(QUICKNET_DST).toBe('BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_');
    // fastnet's mistake (bls-unchained-on-g1 hashed to G1 with G2's tag): quicknet's beacons fail with it.
    const short = bls12_381.shortSignatures;
    const hashed = (dst: string) => short.hash(roundMessage(42), dst);
    const key = hexToBytes(QUICKNET.public_key);
    expect(short.verify(hexToBytes(ROUND_42.signature), hashed(QUICKNET_DST), key)).toBe(true);
    expect(
      short.verify(hexToBytes(ROUND_42.signature), hashed('BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_'), key),
    ).toBe(false);
  });
});

describe('verifyBeacon refuses, naming what failed', () => {
  const cases: [string, unknown, BeaconFailure, number?][] = [
    [
      'a forged signature (another round’s genuine signature)',
      { ...ROUND_42, signature: ROUND_12040883.signature, randomness: ROUND_12040883.randomness },
      'signature',
    ],
    ['a beacon whose round was changed', { ...ROUND_42, round: 43 }, 'signature'],
    ['a genuine beacon of another round than the one asked for', ROUND_42, 'round', 43],
    [
      'randomness that is not SHA-256 of the signature',
      { ...ROUND_42, randomness: ROUND_12040883.randomness },
      'randomness',
    ],
    ['a signature that is not a point of G1', { ...withRandomness(42, `9${'0'.repeat(95)}`) }, 'signature'],
    ['the point at infinity as signature', { ...withRandomness(42, `c${'0'.repeat(95)}`) }, 'signature'],
    ['a signature that is not hex', { ...ROUND_42, signature: `${ROUND_42.signature.slice(0, 94)}zz` }, 'malformed'],
    ['a signature of odd length', { ...ROUND_42, signature: ROUND_42.signature.slice(0, 95) }, 'malformed'],
    [
      'a signature of G2’s length (a chained scheme’s)',
      { ...ROUND_42, signature: ROUND_42.signature.repeat(2) },
      'malformed',
    ],
    ['randomness that is not hex', { ...ROUND_42, randomness: `0x${ROUND_42.randomness.slice(2)}` }, 'malformed'],
    ['no randomness', { round: 42, signature: ROUND_42.signature }, 'malformed'],
    ['a string instead of a beacon', JSON.stringify(ROUND_42), 'malformed'],
    ['null', null, 'malformed'],
    ['round 0', { ...ROUND_42, round: 0 }, 'round'],
    ['a fractional round', { ...ROUND_42, round: 42.5 }, 'round'],
    ['a round as text', { ...ROUND_42, round: '42' }, 'round'],
    ['a round beyond 2^53', { ...ROUND_42, round: 2 ** 53 }, 'round'],
  ];
  for (const [name, beacon, failure, expectedRound] of cases) {
    it(name, () => expect(failureOf(QUICKNET, beacon, expectedRound)).toBe(failure));
  }

  it('refuses every scheme but bls-unchained-g1-rfc9380, before looking at the beacon', () => {
    for (const schemeID of [
      'pedersen-bls-chained',
      'pedersen-bls-unchained',
      'bls-unchained-on-g1',
      'bls-bn254-unchained-on-g1',
      '',
      undefined,
    ])
      expect(failureOf({ ...QUICKNET, schemeID: schemeID as string }, ROUND_42)).toBe('scheme');
  });

  it('refuses a chain whose public key is not a G2 point', () => {
    expect(failureOf({ ...QUICKNET, public_key: QUICKNET.public_key.slice(0, 96) }, ROUND_42)).toBe('public-key');
    expect(failureOf({ ...QUICKNET, public_key: `8${'0'.repeat(191)}` }, ROUND_42)).toBe('public-key');
    expect(failureOf({ ...QUICKNET, public_key: `c${'0'.repeat(191)}` }, ROUND_42)).toBe('public-key');
    expect(failureOf({ ...QUICKNET, public_key: 'not hex' }, ROUND_42)).toBe('public-key');
  });

  it('refuses quicknet’s beacons against another G1 chain’s key (the testnet’s quicknet-t)', () => {
    // drand/drand-client lib/defaults.ts, TESTNET_QUICKNET_CHAIN_INFO.public_key.
    const testnet = {
      schemeID: 'bls-unchained-g1-rfc9380',
      public_key:
        'b15b65b46fb29104f6a4b5d1e11a8da6344463973d423661bb0804846a0ecd1ef93c25057f1c0baab2ac53e56c662b66072f6d84ee791a3382bfb055afab1e6a375538d8ffc451104ac971d2dc9b168e2d3246b0be2015969cbaac298f6502da',
    };
    expect(failureOf(testnet, ROUND_42)).toBe('signature');
  });

  it('never throws, whatever it is handed', () => {
    for (const chain of [QUICKNET, { ...QUICKNET, public_key: 42 }, {}, null] as unknown as ChainInfo[])
      for (const beacon of [undefined, 0, [], { round: {}, signature: {}, randomness: {} }, ROUND_42])
        expect(() => verifyBeacon(chain, beacon)).not.toThrow();
  });
});
