// The beacon module's browser door: what a member's phone needs to check a draw's beacon by itself — the
// chain info, the round arithmetic, the verification and the client — with no node import (browser-safe.test.ts
// holds every file behind this door to that). The main door may grow server-only parts; this one will not.
export {
  QUICKNET,
  QUICKNET_SCHEME,
  beaconSchema,
  chainHashOf,
  chainInfoSchema,
  hashMatchesInfo,
  type Beacon,
  type ChainInfo,
} from './chain-info';
export { firstRoundAfter, roundAt, roundTime, type ChainClock } from './rounds';
export { QUICKNET_DST, roundMessage, verifyBeacon, type BeaconFailure, type BeaconVerification } from './verify';
export {
  fetchBeacon,
  fetchChainInfo,
  type BeaconFetch,
  type BeaconSource,
  type ChainInfoFetch,
  type FetchFailure,
} from './client';
