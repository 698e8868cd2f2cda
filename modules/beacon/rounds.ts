// Round arithmetic of a drand chain: which round is current at a moment, when a round is published, and
// which round a draw accepted at a moment waits for. Times are Unix milliseconds (Date.now()); drand's own
// formulas work in whole seconds, and because every round boundary is a whole second the answers are the
// same. Browser-safe. The formulas and their sources: docs/research/2026-11-30-drand-beacon.md.
import type { ChainInfo } from './chain-info';

/** What the arithmetic reads of a chain. */
export type ChainClock = Pick<ChainInfo, 'genesis_time' | 'period'>;

const SECOND = 1000;

function assertClock(chain: ChainClock) {
  if (!Number.isSafeInteger(chain.period) || chain.period <= 0)
    throw new RangeError(`a chain's period is a positive whole number of seconds (got ${chain.period})`);
  if (!Number.isSafeInteger(chain.genesis_time))
    throw new RangeError(`a chain's genesis_time is whole Unix seconds (got ${chain.genesis_time})`);
}

function assertMoment(atMs: number) {
  if (!Number.isFinite(atMs)) throw new RangeError(`a moment is finite Unix milliseconds (got ${atMs})`);
}

/**
 * The Unix millisecond at which `round` is due: round 1 at the genesis time, then one round every period.
 * It is the earliest moment the round can exist; the network publishes it at that moment or a little
 * after (signing and gathering the signatures take under a second when all is well, longer when not).
 * @example roundTime(QUICKNET, 1) === 1692803367000; roundTime(QUICKNET, 2) === 1692803370000
 */
export function roundTime(chain: ChainClock, round: number): number {
  assertClock(chain);
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`a round is a whole number ≥ 1 (got ${round})`);
  const ms = (chain.genesis_time + (round - 1) * chain.period) * SECOND;
  if (!Number.isSafeInteger(ms)) throw new RangeError(`round ${round} lies beyond the representable time`);
  return ms;
}

/**
 * The round current at `atMs`: the latest round whose time (roundTime) is at or before `atMs`. A round is
 * current from its own time, inclusive, until the next round's time, exclusive. Before the genesis time
 * no round is current and the answer is 0 (drand's Go code answers 1 there, drand-client refuses; 0 keeps
 * `roundAt(t) + 1` right on both sides of the genesis).
 * @example roundAt(QUICKNET, 1692803367000) === 1; roundAt(QUICKNET, 1692803369999) === 1; roundAt(QUICKNET, 1692803370000) === 2
 */
export function roundAt(chain: ChainClock, atMs: number): number {
  assertClock(chain);
  assertMoment(atMs);
  const sinceGenesis = atMs - chain.genesis_time * SECOND;
  if (sinceGenesis < 0) return 0;
  return Math.floor(sinceGenesis / (chain.period * SECOND)) + 1;
}

/**
 * The first round whose time is strictly after `atMs`: the target round of a draw accepted at `atMs`. A
 * round due at exactly `atMs` may already be public at that moment, so it is never the target. Nobody,
 * the shop included, can know the target's randomness when the draw is accepted — provided the shop's
 * clock is not behind the network's: a caller that cannot bound its clock's error adds that bound to
 * `atMs` first.
 * @example firstRoundAfter(QUICKNET, 1692803367000) === 2; firstRoundAfter(QUICKNET, 1692803366999) === 1
 */
export function firstRoundAfter(chain: ChainClock, atMs: number): number {
  return roundAt(chain, atMs) + 1;
}
