// The drand stand-in's chain: a BLS12-381 key made from a seed (the same seed, the same chain, in every run),
// its chain info, the real signature of each round, and which rounds are public now under the test's
// controls (late, silent, wrong). Time follows drand's HTTP relay: round 1 at the genesis, one round a period.
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256, sha384 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { chainHashOf, QUICKNET_DST, QUICKNET_SCHEME, roundMessage, type Beacon, type ChainInfo } from '#modules/beacon';

/** What a wrong stand-in gets wrong: signatures by another key, or randomness that is not SHA-256 of the signature. */
export type WrongKind = 'other-key' | 'randomness';

export interface DrandChainOptions {
  seed: string;
  /** Seconds between rounds. */
  period: number;
  /** Unix seconds of round 1. */
  genesisTime: number;
  beaconId: string;
}

export interface DrandChain {
  info: ChainInfo;
  /** The beacon of `round` as the honest key signs it, or as `wrong` spoils it. */
  beacon(round: number, wrong?: WrongKind | null): Beacon;
}

/** 48 bytes from a text: what noble's keygen reduces to a secret scalar. */
const keySeed = (text: string) => sha384(utf8ToBytes(`drand-standin:${text}`));

/**
 * A chain whose key, group hash and so chain hash follow from the options alone.
 * @example const chain = drandChain({ seed: 'test', period: 3, genesisTime: 1_700_000_000, beaconId: 'standin' })
 */
export function drandChain(options: DrandChainOptions): DrandChain {
  const short = bls12_381.shortSignatures;
  const honest = short.keygen(keySeed(options.seed));
  const other = short.keygen(keySeed(`${options.seed}:another key`));
  const fields = {
    public_key: bytesToHex(honest.publicKey.toBytes()),
    period: options.period,
    genesis_time: options.genesisTime,
    groupHash: bytesToHex(sha256(utf8ToBytes(`drand-standin group:${options.seed}`))),
    schemeID: QUICKNET_SCHEME,
    metadata: { beaconID: options.beaconId },
  };
  const info: ChainInfo = { ...fields, hash: chainHashOf(fields) };
  // Signing costs milliseconds: each (key, round) is signed once.
  const signatures = new Map<string, Uint8Array>();
  const signature = (secretKey: Uint8Array, name: string, round: number) => {
    const key = `${name}:${round}`;
    let signed = signatures.get(key);
    if (!signed) {
      signed = short.Signature.toBytes(short.sign(short.hash(roundMessage(round), QUICKNET_DST), secretKey));
      signatures.set(key, signed);
    }
    return signed;
  };
  return {
    info,
    beacon(round, wrong = null) {
      const signed =
        wrong === 'other-key'
          ? signature(other.secretKey, 'other', round)
          : signature(honest.secretKey, 'honest', round);
      const randomness = sha256(signed);
      if (wrong === 'randomness') randomness[randomness.length - 1] ^= 0x01;
      return { round, randomness: bytesToHex(randomness), signature: bytesToHex(signed) };
    },
  };
}

/** The test's controls, as the state the routes read. */
export interface DrandMode {
  /** Rounds become public this many milliseconds after their time. */
  lateMs: number;
  /** No round becomes public. */
  silent: boolean;
  wrong: WrongKind | null;
  /** Rounds already public when a control last changed: public for good, whatever the new mode. */
  floor: number;
}

/**
 * The round due by the clock at `nowMs` (drand's relay: whole seconds, round 1 at the genesis), 0 before it.
 * @example roundDueAt({ genesis_time: 10, period: 3 }, 13_000) === 2
 */
export function roundDueAt(info: Pick<ChainInfo, 'genesis_time' | 'period'>, nowMs: number): number {
  const seconds = Math.floor(nowMs / 1000);
  if (seconds < info.genesis_time) return 0;
  return Math.floor((seconds - info.genesis_time) / info.period) + 1;
}

/** The latest public round at `nowMs` under `mode`. */
export function publishedRound(info: ChainInfo, mode: DrandMode, nowMs: number): number {
  if (mode.silent) return mode.floor;
  return Math.max(mode.floor, roundDueAt(info, nowMs - mode.lateMs));
}
