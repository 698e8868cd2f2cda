// The fairness module's door: pure functions (no tables) for the seed, the shuffle, the commitment
// and the reveal; gacha publishes with them, draw builds the reveal, scripts/verify-pack.ts checks one.
export * from './commitment';
// The beacon mode's formats and selection (decision 081): browser-safe, also behind the browser door.
export * from './beacon-mode';
export * from './beacon-draw-check';
// The beacon mode's public draw log and its verifiers (whole pack and one draw): browser-safe too.
export * from './beacon-log';
export { BEACON_CHECK_NAMES, type TrustedChain } from './beacon-checks';
export * from './beacon-verify';
