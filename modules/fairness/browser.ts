// The fairness module's browser door: the reveal file's formats, parser and check names, and the verifier over
// Web Crypto, with nothing from node:crypto (the main door would carry it into the page's scripts).
export {
  CHECK_NAMES,
  REVEAL_FORMAT,
  REVEAL_FORMAT_KIRIBAN,
  REVEAL_FORMAT_EXTRAS,
  type PackReveal,
  type PackTier,
  type RevealCheck,
  type RevealStats,
  type RevealVerification,
} from './format';
export { parsePackReveal } from './reveal-parser';
export { computeCommitmentInBrowser, readRevealText, shuffleLotsInBrowser, verifyRevealInBrowser } from './web-crypto';
export * from './beacon-mode';
export * from './beacon-draw-check';
export * from './beacon-log';
export { BEACON_CHECK_NAMES, type TrustedChain } from './beacon-checks';
export * from './beacon-verify';
