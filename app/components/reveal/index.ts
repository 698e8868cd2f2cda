// The draw-result reveal (演出): the overlay, the rules it follows, and its effects for the staff preview.
export type { RevealEffect, RevealItem } from './types';
export { bestItem, effectFor, REVEAL_EFFECTS, EFFECT_SWATCHES, revealTimeline, announcement } from './reveal-logic';
export { Reveal, type RevealProps } from './Reveal';
export { sampleRevealItems } from './samples';
