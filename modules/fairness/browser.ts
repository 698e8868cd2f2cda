// The fairness module's browser door: the reveal file's formats, parser and check names, and the verifier over
// Web Crypto, with nothing from node:crypto (the main door would carry it into the page's scripts).
export {
  CHECK_NAMES,
  REVEAL_FORMAT,
  REVEAL_FORMAT_KIRIBAN,
  REVEAL_FORMAT_EXTRAS,
  REVEAL_FORMAT_CEILING,
  type PackReveal,
  type PackTier,
  type RevealCheck,
  type RevealStats,
  type RevealVerification,
} from './format';
export { parsePackReveal } from './reveal-parser';
// The 天井賞's rule, for the pack page's meter (「あとN口で天井」) as the draw and check 10 count it.
export { ceilingQuantity, ceilingWalk, isCeilingTier } from './ceiling';
export { computeCommitmentInBrowser, readRevealText, shuffleLotsInBrowser, verifyRevealInBrowser } from './web-crypto';
export * from './beacon-mode';
export * from './beacon-draw-check';
export * from './beacon-log';
export { BEACON_CHECK_NAMES, type TrustedChain } from './beacon-checks';
export * from './beacon-verify';
