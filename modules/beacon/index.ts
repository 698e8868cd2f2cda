// The beacon module's door: drand's chain info and beacons (quicknet's scheme), round arithmetic, the
// verification of a beacon and a small HTTP client that verifies before it answers. No tables. Everything
// here is browser-safe as well; the pages import the same through `#modules/beacon/browser`.
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
