// Verifies one drand beacon of a `bls-unchained-g1-rfc9380` chain (quicknet's scheme) in node or a browser:
// the signature on G1 against the chain's public key on G2, over SHA-256 of the round as 8 big-endian bytes,
// hashed to the curve with RFC 9380's G1 suite, and the randomness as SHA-256 of the signature. Never
// throws: every input, however malformed, gets a result naming what failed. The scheme's facts and their
// sources: docs/research/2026-11-30-drand-beacon.md.
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { QUICKNET_SCHEME, type ChainInfo } from './chain-info';

/** The domain-separation tag drand's scheme hashes the message with (RFC 9380's BLS signature suite on G1). */
export const QUICKNET_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

/** Byte lengths of the scheme: a compressed G1 signature, a compressed G2 public key, a SHA-256. */
const SIGNATURE_BYTES = 48;
const PUBLIC_KEY_BYTES = 96;
const RANDOMNESS_BYTES = 32;

/**
 * What failed, checked in this order (the first failure is the answer):
 * `scheme` the chain is not `bls-unchained-g1-rfc9380`; `public-key` the chain's key is not a G2 point;
 * `malformed` the beacon is not an object with hex `signature` (48 bytes) and `randomness` (32 bytes);
 * `round` the round is not a whole number ≥ 1, or not the round asked for; `randomness` it is not
 * SHA-256 of the signature; `signature` the signature is not a G1 point or does not verify for the round.
 */
export type BeaconFailure = 'scheme' | 'public-key' | 'malformed' | 'round' | 'randomness' | 'signature';

export type BeaconVerification =
  { valid: true; round: number; randomness: string } | { valid: false; failure: BeaconFailure; detail: string };

const refused = (failure: BeaconFailure, detail: string): BeaconVerification => ({ valid: false, failure, detail });

/** Hex of exactly `bytes` bytes, either case; null for anything else. */
function hexOf(value: unknown, bytes: number): Uint8Array | null {
  if (typeof value !== 'string' || value.length !== bytes * 2 || !/^[0-9a-fA-F]*$/.test(value)) return null;
  return hexToBytes(value);
}

/**
 * SHA-256 of the round as an unsigned 64-bit big-endian integer: what every signer of an unchained chain
 * signs for that round.
 * @example bytesToHex(roundMessage(1)) === 'cd2662154e6d76b2b2b92e70c0cac3ccf534f9b74eb5b89819ec509083d00a50'
 */
export function roundMessage(round: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return sha256(bytes);
}

function publicKeyOf(chain: Pick<ChainInfo, 'public_key'>) {
  const bytes = hexOf(chain.public_key, PUBLIC_KEY_BYTES);
  if (!bytes) return null;
  try {
    const point = bls12_381.G2.Point.fromBytes(bytes);
    return point.is0() ? null : point;
  } catch {
    return null;
  }
}

function signatureMatches(signature: Uint8Array, round: number, publicKey: ReturnType<typeof publicKeyOf>): boolean {
  const short = bls12_381.shortSignatures;
  try {
    const point = short.Signature.fromBytes(signature);
    if (point.is0()) return false;
    return short.verify(point, short.hash(roundMessage(round), QUICKNET_DST), publicKey!);
  } catch {
    return false;
  }
}

/**
 * Verifies a beacon against a chain's info. `expectedRound`, when given, must be the beacon's round (a relay
 * answering another round's genuine beacon is refused as `round`). The chain info must already be trusted
 * (QUICKNET, or an info whose hash the caller pinned): this checks the beacon, not the chain.
 * @example verifyBeacon(QUICKNET, beacon, 12040883) // { valid: true, round: 12040883, randomness: '173d…' }
 */
export function verifyBeacon(
  chain: Pick<ChainInfo, 'schemeID' | 'public_key'>,
  beacon: unknown,
  expectedRound?: number,
): BeaconVerification {
  if (chain?.schemeID !== QUICKNET_SCHEME)
    return refused('scheme', `対応していない方式です（${String(chain?.schemeID)}）。対応: ${QUICKNET_SCHEME}`);
  const publicKey = publicKeyOf(chain);
  if (!publicKey) return refused('public-key', 'チェーンの公開鍵が BLS12-381 G2 の点（96 バイト）ではありません');
  if (typeof beacon !== 'object' || beacon === null)
    return refused('malformed', 'ビーコンがオブジェクトではありません');
  const { round, signature: signatureHex, randomness: randomnessHex } = beacon as Record<string, unknown>;
  const signature = hexOf(signatureHex, SIGNATURE_BYTES);
  if (!signature) return refused('malformed', '署名が 48 バイトの16進数ではありません');
  const randomness = hexOf(randomnessHex, RANDOMNESS_BYTES);
  if (!randomness) return refused('malformed', '乱数値が 32 バイトの16進数ではありません');
  if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 1)
    return refused('round', `ラウンド番号が 1 以上の整数ではありません（${String(round)}）`);
  if (expectedRound !== undefined && round !== expectedRound)
    return refused('round', `求めたラウンド ${expectedRound} ではなくラウンド ${round} のビーコンです`);
  const expectedRandomness = bytesToHex(sha256(signature));
  if (bytesToHex(randomness) !== expectedRandomness)
    return refused('randomness', '乱数値が署名の SHA-256 と一致しません');
  if (!signatureMatches(signature, round, publicKey))
    return refused('signature', `署名がラウンド ${round} に対するチェーンの公開鍵の署名として検証できません`);
  return { valid: true, round, randomness: expectedRandomness };
}
