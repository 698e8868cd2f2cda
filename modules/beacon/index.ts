// The beacon module's door: drand's chain info and beacons (quicknet's scheme), round arithmetic, the
// verification of a beacon and a small HTTP client that verifies before it answers. No tables. Everything
// here is browser-safe as well, so this door is the browser door's; the pages import the same through
// `#modules/beacon/browser`, and server-only parts, when they come, are added here alone.
export * from './browser';
