// Local stand-in of drand's HTTP API (the v1 routes of drand's HTTP relay), for tests and a sandbox shop:
// one chain of scheme bls-unchained-g1-rfc9380 (quicknet's) with a key made from a seed, real BLS signatures,
// GET /chains, /{chainHash}/info, /{chainHash}/public/latest, /{chainHash}/public/{round}, /{chainHash}/health,
// and the same without the hash for the default chain (this one). A round beyond the next one answers 425
// Too Early; the next one is held until it is public; a round whose time has passed but which is not public
// answers 500, as the relay does (docs/research/2026-11-30-drand-beacon.md). Its clock is an option, so a test
// moves time instead of waiting. Controls: late (rounds public N seconds after their time), silent (no new
// round), wrong (signatures by another key, or randomness that is not SHA-256 of the signature).
// What it leaves out: the v2 API, chained schemes, several chains, and the network's own variations.
import { listenStandin } from '#devtools/standins/shared';
import type { Beacon, ChainInfo } from '#modules/beacon';
import { drandChain, publishedRound, type DrandMode, type WrongKind } from './chain';
import { createDrandApp, type DrandStandinCall, type DrandState } from './routing';

export type { DrandStandinCall } from './routing';
export type { WrongKind } from './chain';
// The chain without a server: real signatures for format examples and unit tests.
export { drandChain, type DrandChain, type DrandChainOptions } from './chain';

export interface DrandStandinOptions {
  /** The key and group hash follow from it: the same seed, the same chain hash (default 'drand-standin'). */
  seed?: string;
  /** Seconds between rounds (default 3, quicknet's). */
  period?: number;
  /** Unix seconds of round 1 (default: the clock's second at start, so round 1 is public at once). */
  genesisTime?: number;
  /** The chain's beacon id (default 'standin'; part of the chain hash). */
  beaconId?: string;
  /** The stand-in's clock in Unix milliseconds (default Date.now): a test's fake clock moves time. */
  now?: () => number;
  /** Real milliseconds the next round's request is held before 500 (default (2 × period + 1) s, as the relay and node wait). */
  holdMs?: number;
  host?: string;
  port?: number;
}

export interface DrandStandin {
  url: string;
  chainHash: string;
  /** The chain's info, as `/{chainHash}/info` answers it. */
  info: ChainInfo;
  /** The honest beacon of a round, whatever the clock and the controls say (what a test expects). */
  beacon(round: number): Beacon;
  /** The latest public round now (0: none yet). */
  publishedRound(): number;
  /** Rounds become public `seconds` after their time (0: on time). Rounds already public stay public. */
  late(seconds: number): void;
  /** No new round becomes public while on; those already public stay. Off: rounds due meanwhile appear at once. */
  silent(on?: boolean): void;
  /** Every beacon answered is spoiled this way until `wrong(null)`. */
  wrong(kind: WrongKind | null): void;
  /** On time, not silent, not wrong. */
  normal(): void;
  /** Requests for the next round held now, waiting for it to become public. */
  heldRequests(): number;
  /** The requests answered, oldest first. */
  readonly calls: DrandStandinCall[];
  close(): Promise<void>;
}

/**
 * Starts the stand-in on a free loopback port.
 * @example const drand = await startDrandStandin({ seed: 'test', genesisTime: 1_700_000_000, now: () => clock })
 */
export async function startDrandStandin(options: DrandStandinOptions = {}): Promise<DrandStandin> {
  const now = options.now ?? Date.now;
  const period = options.period ?? 3;
  if (!Number.isSafeInteger(period) || period <= 0)
    throw new RangeError(`drand stand-in: period ${period} is not whole seconds`);
  const chain = drandChain({
    seed: options.seed ?? 'drand-standin',
    period,
    genesisTime: options.genesisTime ?? Math.floor(now() / 1000),
    beaconId: options.beaconId ?? 'standin',
  });
  const state: DrandState = {
    chain,
    mode: { lateMs: 0, silent: false, wrong: null, floor: 0 },
    now,
    holdMs: options.holdMs ?? (2 * period + 1) * 1000,
    calls: [],
    held: 0,
    closing: new AbortController(),
  };
  /** A control changes what becomes public from now on; what is public already stays so. */
  const change = (next: Partial<DrandMode>) => {
    const floor = publishedRound(chain.info, state.mode, now());
    state.mode = { ...state.mode, ...next, floor };
  };
  const { server, url } = await listenStandin(createDrandApp(state).fetch, { host: options.host, port: options.port });
  return {
    url,
    chainHash: chain.info.hash,
    info: structuredClone(chain.info),
    beacon: (round) => chain.beacon(round),
    publishedRound: () => publishedRound(chain.info, state.mode, now()),
    late(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`drand stand-in: late(${seconds})`);
      change({ lateMs: seconds * 1000 });
    },
    silent: (on = true) => change({ silent: on }),
    wrong: (kind) => change({ wrong: kind }),
    normal: () => change({ lateMs: 0, silent: false, wrong: null }),
    heldRequests: () => state.held,
    calls: state.calls,
    async close() {
      state.closing.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
