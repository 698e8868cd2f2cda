// drand's chain info and beacon as its HTTP API (v1) answers them, the chain hash that a chain's info
// derives, and the League of Entropy's quicknet chain. Browser-safe: no node import. The facts and their
// sources: docs/research/2026-11-30-drand-beacon.md.
import { z } from 'zod';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The one scheme this module verifies: BLS12-381 with the group's public key on G2 (96 bytes), each round's
 * signature on G1 (48 bytes), RFC 9380 hash-to-curve, unchained (the message is the round alone).
 */
export const QUICKNET_SCHEME = 'bls-unchained-g1-rfc9380';

/** The beacon id drand leaves out of the chain hash (its chains from before several chains per node). */
const DEFAULT_BEACON_ID = 'default';

/** Hex of whole bytes, either case (drand writes lower case). */
const hexBytes = (what: string) => z.string().regex(/^(?:[0-9a-fA-F]{2})+$/, `${what} must be hex of whole bytes`);
const hex32 = (what: string) => z.string().regex(/^[0-9a-fA-F]{64}$/, `${what} must be 32 bytes of hex`);

/** A chain's `/info` (the v1 API's field names). Fields drand may add later are dropped. */
export const chainInfoSchema = z.object({
  /** The group's public key, compressed (96 bytes on G2 for quicknet's scheme). */
  public_key: hexBytes('public_key'),
  /** Seconds between rounds. */
  period: z.int().positive(),
  /** Unix seconds at which round 1 is published. */
  genesis_time: z.int().nonnegative(),
  /** The chain hash: SHA-256 over the fields above (chainHashOf), the chain's name in every URL. */
  hash: hex32('hash'),
  /** The genesis seed ("group hash"), fixed when the chain was created. */
  groupHash: hex32('groupHash'),
  schemeID: z.string().min(1),
  metadata: z.object({ beaconID: z.string() }),
});
export type ChainInfo = z.infer<typeof chainInfoSchema>;

/** One round's beacon as `/public/{round}` answers it (unchained: no previous_signature). */
export const beaconSchema = z.object({
  round: z.int().positive(),
  /** SHA-256 of the signature's bytes: the round's random value. */
  randomness: hex32('randomness'),
  signature: hexBytes('signature'),
});
export type Beacon = z.infer<typeof beaconSchema>;

/**
 * The League of Entropy's quicknet chain (mainnet, since 2023-08-23): a beacon every 3 seconds, signatures
 * on G1. Every field as drand's own repositories state it; the hash is also recomputed by the tests.
 */
export const QUICKNET: Readonly<ChainInfo> = Object.freeze({
  public_key:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesis_time: 1692803367,
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  groupHash: 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
  schemeID: QUICKNET_SCHEME,
  metadata: Object.freeze({ beaconID: 'quicknet' }),
});

/**
 * The chain hash drand derives from a chain's info: SHA-256 of the period (uint32, big-endian), the
 * genesis time (int64, big-endian), the public key's bytes, the group hash's bytes and, unless the beacon
 * id is `default` or empty, the beacon id's UTF-8 bytes. The scheme is not hashed: a chain info whose hash
 * matches still needs its scheme checked (verifyBeacon refuses every scheme but quicknet's).
 * Takes a parsed chain info (chainInfoSchema); answers lower-case hex.
 * @example chainHashOf(QUICKNET) === QUICKNET.hash
 */
export function chainHashOf(
  info: Pick<ChainInfo, 'period' | 'genesis_time' | 'public_key' | 'groupHash' | 'metadata'>,
) {
  const times = new Uint8Array(12);
  const view = new DataView(times.buffer);
  view.setUint32(0, info.period);
  view.setBigInt64(4, BigInt(info.genesis_time));
  const parts = [times, hexToBytes(info.public_key), hexToBytes(info.groupHash)];
  const beaconId = info.metadata.beaconID;
  if (beaconId !== '' && beaconId !== DEFAULT_BEACON_ID) parts.push(utf8ToBytes(beaconId));
  return bytesToHex(sha256(concatBytes(...parts)));
}

/**
 * Whether a chain info's stated hash is the one its fields derive (a relay cannot change the key, period or
 * genesis of a chain whose hash the caller already trusts).
 * @example hashMatchesInfo(QUICKNET) === true
 */
export function hashMatchesInfo(info: ChainInfo): boolean {
  return chainHashOf(info) === info.hash.toLowerCase();
}
