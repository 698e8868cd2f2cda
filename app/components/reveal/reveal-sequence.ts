// The reveal's clock (decision 056): when the pack bursts, which cards have turned, when it lands.
// The result exists in the page only as far as it has been revealed: a card's face (art, tier) is
// rendered when that card turns, the headline when every card has. Card art is fetched and decoded
// before its card turns; while it is not, the pack keeps shaking (its other animations pause).
import { useCallback, useEffect, useRef, useState } from 'react';
import { buildSrcSet } from '#modules/kernel/image-srcset';
import type { RevealItem } from './types';
import { revealOrder, revealTimeline, effectFor, isHitEffect } from './reveal-logic';

export type Phase = 'sealed' | 'playing' | 'turning' | 'landed';

/**
 * The longest the reveal waits for one card's art before it turns the card anyway (its alt text shows):
 * a first request for a size makes the image resizer work, seconds on a busy machine.
 */
const ART_WAIT_MS = 15_000;

/** The CSS width a card's art is shown at: the single card, a 10連 card, a 100連 tile. */
export function artWidth(itemCount: number): number {
  if (itemCount <= 1) return 250;
  return itemCount > 10 ? 64 : 120;
}

function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * Fetches and decodes one image as the <Image> of that width will ask for it (same srcset, same cache
 * entry). Its load event is the signal: decode() alone rejects at once for some images (an SVG in
 * Chromium), which would let the card turn blank. Resolves on an error too (the alt text shows).
 */
function decodeArt(src: string, width: number): Promise<void> {
  const attrs = buildSrcSet(src, { width });
  const image = new window.Image();
  const loaded = new Promise<void>((resolve) => {
    image.onload = () => resolve();
    image.onerror = () => resolve();
  });
  image.decoding = 'async';
  if (attrs.sizes) image.sizes = attrs.sizes;
  if (attrs.srcSet) image.srcset = attrs.srcSet;
  image.src = attrs.src;
  const decoded = loaded.then(() => image.decode().catch(() => undefined));
  return Promise.race([decoded, sleep(ART_WAIT_MS)]);
}

export interface RevealSequence {
  phase: Phase;
  /** The cards in the order they turn (draw order, the best one last). */
  order: RevealItem[];
  /** turned[i]: order[i] has turned (its face is rendered). */
  turned: boolean[];
  /** The pack waits for card art (its burst paused). */
  holding: boolean;
  open: () => void;
  /** A tap on a face-down card turns it at once. */
  turn: (index: number) => void;
  /** A single card's landing frame has faded in. */
  landed: () => void;
}

/**
 * Runs a reveal: `autoPlay` starts at once, else it waits sealed for open(). With reduced motion the
 * pack is not shown: once the art is decoded every card is turned and the reveal has landed.
 */
export function useRevealSequence(items: RevealItem[], autoPlay: boolean): RevealSequence {
  // Fixed for the reveal's life: a revalidated loader's new (equal) items must not restart the clock.
  const [order] = useState(() => revealOrder(items));
  const [phase, setPhase] = useState<Phase>(autoPlay ? 'playing' : 'sealed');
  const [turned, setTurned] = useState<boolean[]>(() => order.map(() => false));
  const [holding, setHolding] = useState(false);
  const turnedRef = useRef(turned);
  turnedRef.current = turned;
  const art = useRef(new Map<string, Promise<void>>());
  const width = artWidth(order.length);

  const artOf = useCallback(
    (item: RevealItem) => {
      let ready = art.current.get(item.imagePath);
      if (!ready) {
        ready = decodeArt(item.imagePath, width);
        art.current.set(item.imagePath, ready);
      }
      return ready;
    },
    [width],
  );

  // Every card's art starts loading with the overlay, while the pack plays.
  useEffect(() => {
    for (const item of order) void artOf(item);
  }, [order, artOf]);

  const turn = useCallback((index: number) => {
    setTurned((previous) => {
      if (previous[index]) return previous;
      const next = previous.slice();
      next[index] = true;
      return next;
    });
  }, []);

  // The pack: it bursts when the art is ready (it keeps shaking until then), then the cards turn.
  useEffect(() => {
    if (phase !== 'playing') return;
    let cancelled = false;
    const allArt = () => Promise.all(order.map(artOf));
    if (order.length === 0) {
      setPhase('landed');
      return;
    }
    void (async () => {
      if (prefersReducedMotion()) {
        await allArt();
        if (cancelled) return;
        setTurned(order.map(() => true));
        setPhase('landed');
        return;
      }
      const timeline = revealTimeline(effectFor(order), order.length);
      const checkpoint = Math.max(0, timeline.burstStart - 60);
      await sleep(checkpoint);
      let waited = false;
      const ready = allArt().then(() => (waited = true));
      await Promise.race([ready, sleep(30)]);
      if (!waited) {
        if (cancelled) return;
        setHolding(true);
        await ready;
        if (cancelled) return;
        setHolding(false);
      }
      await sleep(timeline.landStart - checkpoint);
      if (cancelled) return;
      // A single card lands with its frame (see landed); a multi-draw turns its grid.
      if (order.length === 1) turn(0);
      setPhase('turning');
    })();
    return () => {
      cancelled = true;
    };
  }, [phase, order, artOf, turn]);

  // The grid: one card after another in the reveal order, a pause, the best card last.
  useEffect(() => {
    if (phase !== 'turning' || order.length <= 1) return;
    let cancelled = false;
    const timeline = revealTimeline(effectFor(order), order.length);
    void (async () => {
      for (let index = 0; index < order.length; index++) {
        if (cancelled) return;
        if (turnedRef.current[index]) continue;
        if (index === order.length - 1 && index > 0) {
          await sleep(timeline.lastPauseMs);
          if (cancelled) return;
        }
        await artOf(order[index]);
        if (cancelled) return;
        turn(index);
        if (index < order.length - 1) await sleep(timeline.gridStaggerMs);
      }
      const bestIsHit = isHitEffect(order[order.length - 1].effect);
      await sleep(timeline.gridFlipMs + (bestIsHit ? 300 : 0));
      if (!cancelled) setPhase('landed');
    })();
    return () => {
      cancelled = true;
    };
  }, [phase, order, artOf, turn]);

  const open = useCallback(() => setPhase('playing'), []);
  const landed = useCallback(() => setPhase((current) => (current === 'turning' ? 'landed' : current)), []);
  return { phase, order, turned, holding, open, turn, landed };
}
