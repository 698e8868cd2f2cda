// A small client of drand's HTTP API (v1 paths under the chain hash): one round's beacon, or the latest,
// verified before it is returned, and a chain's info checked against the hash the caller trusts. Every
// outcome is a value (not yet published, timed out, network, another HTTP status, a bad answer); only
// misuse throws. Browser-safe (the page may ask a relay itself: drand answers with CORS allowed).
// The answers it reads and their sources: docs/research/2026-11-30-drand-beacon.md.
import { beaconSchema, chainInfoSchema, hashMatchesInfo, type Beacon, type ChainInfo } from './chain-info';
import { verifyBeacon, type BeaconFailure } from './verify';

/** Where to ask and for how long. */
export interface BeaconSource {
  /** A relay's base URL, e.g. the stand-in's `url` or one of drand's public endpoints. */
  baseUrl: string;
  /** Milliseconds for the whole exchange, body included. A relay holds a request for the next round until it is due. */
  timeoutMs: number;
  /** Tests and other runtimes may pass their own. */
  fetch?: typeof fetch;
  /** Cancels the exchange (it then answers `network`). */
  signal?: AbortSignal;
}

/** Why no beacon came back. */
export type FetchFailure =
  /** 425 Too Early: drand's relay answers it for a round beyond the next one by its clock. */
  | { failure: 'not-yet-published'; status: 425 }
  | { failure: 'timeout' }
  | { failure: 'network'; detail: string }
  /** Any other status: 500 when the network has not produced a round whose time has passed, 400, 404 … */
  | { failure: 'http-status'; status: number }
  /** An answer that is not a beacon (`malformed`), or one that fails verification. */
  | { failure: 'bad-beacon'; reason: BeaconFailure; detail: string };

export type BeaconFetch = ({ ok: true; beacon: Beacon } | ({ ok: false } & FetchFailure)) & { url: string };
export type ChainInfoFetch =
  | { ok: true; info: ChainInfo; url: string }
  | ({ ok: false; url: string } & (
      Exclude<FetchFailure, { failure: 'bad-beacon' }> | { failure: 'bad-chain-info'; detail: string }
    ));

type Answer = { kind: 'json'; status: number; body: unknown } | ({ kind: 'failed' } & FetchFailure);

function assertSource(source: BeaconSource) {
  if (!Number.isFinite(source.timeoutMs) || source.timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be a positive number of milliseconds (got ${source.timeoutMs})`);
  if (!URL.canParse(source.baseUrl)) throw new RangeError(`baseUrl is not a URL: ${source.baseUrl}`);
}

const urlOf = (source: BeaconSource, path: string) => `${source.baseUrl.replace(/\/+$/, '')}/${path}`;

async function ask(source: BeaconSource, url: string): Promise<Answer> {
  const timeout = AbortSignal.timeout(source.timeoutMs);
  const signal = source.signal ? AbortSignal.any([timeout, source.signal]) : timeout;
  try {
    const response = await (source.fetch ?? fetch)(url, { signal, headers: { accept: 'application/json' } });
    const text = await response.text();
    if (response.status === 425) return { kind: 'failed', failure: 'not-yet-published', status: 425 };
    if (response.status !== 200) return { kind: 'failed', failure: 'http-status', status: response.status };
    try {
      return { kind: 'json', status: response.status, body: JSON.parse(text) };
    } catch {
      return { kind: 'json', status: response.status, body: text };
    }
  } catch (error) {
    if (timeout.aborted) return { kind: 'failed', failure: 'timeout' };
    return { kind: 'failed', failure: 'network', detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * One round's beacon (or `'latest'`) of `chain` from `source`, verified against `chain` (a numbered round
 * must come back as that round). `chain` is trusted as given: pass QUICKNET, or an info fetchChainInfo
 * checked against a pinned hash.
 * @example const answer = await fetchBeacon({ baseUrl, timeoutMs: 10_000 }, QUICKNET, 12040883); if (answer.ok) use(answer.beacon.randomness)
 */
export async function fetchBeacon(
  source: BeaconSource,
  chain: ChainInfo,
  round: number | 'latest',
): Promise<BeaconFetch> {
  assertSource(source);
  if (round !== 'latest' && (!Number.isSafeInteger(round) || round < 1))
    throw new RangeError(`a round is a whole number ≥ 1 or 'latest' (got ${round})`);
  const url = urlOf(source, `${chain.hash.toLowerCase()}/public/${round}`);
  const answer = await ask(source, url);
  if (answer.kind === 'failed') {
    const { kind: _kind, ...failure } = answer;
    return { ok: false, url, ...failure };
  }
  const parsed = beaconSchema.safeParse(answer.body);
  if (!parsed.success)
    return { ok: false, url, failure: 'bad-beacon', reason: 'malformed', detail: parsed.error.issues[0]!.message };
  const verification = verifyBeacon(chain, parsed.data, round === 'latest' ? undefined : round);
  if (!verification.valid)
    return { ok: false, url, failure: 'bad-beacon', reason: verification.failure, detail: verification.detail };
  return { ok: true, url, beacon: parsed.data };
}

/**
 * The info of the chain named `chainHash`, accepted only when its fields derive that very hash (chainHashOf):
 * what a relay answers cannot swap the key, period or genesis of a pinned chain. The scheme is not in the
 * hash; verifyBeacon checks it.
 * @example const answer = await fetchChainInfo({ baseUrl: standin.url, timeoutMs: 10_000 }, standin.chainHash)
 */
export async function fetchChainInfo(source: BeaconSource, chainHash: string): Promise<ChainInfoFetch> {
  assertSource(source);
  if (!/^[0-9a-fA-F]{64}$/.test(chainHash)) throw new RangeError(`a chain hash is 32 bytes of hex (got ${chainHash})`);
  const url = urlOf(source, `${chainHash.toLowerCase()}/info`);
  const answer = await ask(source, url);
  if (answer.kind === 'failed') {
    const { kind: _kind, ...failure } = answer;
    return { ok: false, url, ...(failure as Exclude<FetchFailure, { failure: 'bad-beacon' }>) };
  }
  const parsed = chainInfoSchema.safeParse(answer.body);
  if (!parsed.success) return { ok: false, url, failure: 'bad-chain-info', detail: parsed.error.issues[0]!.message };
  if (parsed.data.hash.toLowerCase() !== chainHash.toLowerCase() || !hashMatchesInfo(parsed.data))
    return {
      ok: false,
      url,
      failure: 'bad-chain-info',
      detail: `the info does not derive the chain hash ${chainHash}`,
    };
  return { ok: true, url, info: parsed.data };
}
