// The draw-result reveal (演出): a full-screen overlay that shakes a pack through colour steps, bursts
// with the best tier's light and lands on the best prize actually won; a multi-draw turns every card
// of a grid in draw order, the best one last, the hits glowing. Nothing of the result is in the page
// before its card turns (decision 056; the clock is reveal-sequence.ts, the animations CSS).
import { useCallback, useEffect, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { buttonClassName } from '../Button';
import { Image } from '../Image';
import { formatCoins } from '~/lib/numbers';
import type { RevealItem } from './types';
import { REVEAL_CSS } from './reveal-styles';
import {
  EFFECT_ACCENTS,
  STEP_COLOURS,
  announcement,
  cardDetails,
  effectFor,
  isHitEffect,
  revealTimeline,
  tierBadge,
} from './reveal-logic';
import { artWidth, useRevealSequence } from './reveal-sequence';

export interface RevealProps {
  /** Every card of the draw, in draw order; the reveal lands on the best one (see bestItem). */
  items: RevealItem[];
  /** Called once, when the member skips (スキップ, Escape) or taps 「結果を見る」. Unmount the overlay then. */
  onDone: () => void;
  /** Start the animation at once (default). When false the sealed pack waits for a tap on 「開封する」. */
  autoPlay?: boolean;
  /** Shown in the top-left corner while the reveal plays (a beacon draw's check by the phone); never the result. */
  aside?: ReactNode;
}

// Sparkles around the landing card (fixed positions: server and client render the same markup).
const SPARKS: { left: string; top: string; delay: string; scale: number }[] = [
  { left: '-8%', top: '8%', delay: '0s', scale: 1 },
  { left: '106%', top: '14%', delay: '.4s', scale: 0.7 },
  { left: '-12%', top: '58%', delay: '.9s', scale: 0.8 },
  { left: '110%', top: '66%', delay: '.2s', scale: 1.1 },
  { left: '18%', top: '-5%', delay: '1.1s', scale: 0.6 },
  { left: '84%', top: '103%', delay: '.6s', scale: 0.9 },
  { left: '4%', top: '96%', delay: '1.3s', scale: 0.7 },
  { left: '78%', top: '-4%', delay: '.8s', scale: 0.8 },
];

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

function isShown(element: HTMLElement): boolean {
  return element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
}

const ms = (value: number) => `${value}ms`;

/**
 * The overlay as a modal: focus moves into it, the page behind neither scrolls nor keeps focus, Escape
 * skips, Tab stays inside. Returns the dialog's keydown handler.
 */
function useModalFocus(dialog: React.RefObject<HTMLDivElement | null>, finish: () => void) {
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus({ preventScroll: true });
    const root = document.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = 'hidden';
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        finish();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      root.style.overflow = overflow;
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [dialog, finish]);

  return (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const nodes = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(isShown);
    if (nodes.length === 0) {
      event.preventDefault();
      return;
    }
    const first = nodes[0];
    const last = nodes[nodes.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };
}

/**
 * @example
 * {revealing ? <Reveal items={items} onDone={() => setRevealing(false)} /> : null}
 */
export function Reveal({ items, onDone, autoPlay = true, aside }: RevealProps) {
  const { phase, order, turned, holding, open, turn, landed } = useRevealSequence(items, autoPlay);
  const dialog = useRef<HTMLDivElement>(null);
  const resultButton = useRef<HTMLButtonElement>(null);
  const done = useRef(false);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  const finish = useCallback(() => {
    if (done.current) return;
    done.current = true;
    onDoneRef.current();
  }, []);

  const effect = effectFor(items);
  const timeline = revealTimeline(effect, items.length);
  // The best card turns last (revealOrder).
  const best = order.length > 0 ? order[order.length - 1] : null;
  const multi = order.length > 1;

  useEffect(() => {
    if (phase === 'landed') resultButton.current?.focus({ preventScroll: true });
  }, [phase]);

  const trapTab = useModalFocus(dialog, finish);

  const vars = {
    '--rv-intro': ms(timeline.introMs),
    '--rv-charge-dur': ms(timeline.burstStart - timeline.chargeStart),
    '--rv-promo': ms(timeline.promotionStart),
    '--rv-promo-dur': ms(timeline.promotionMs),
    '--rv-burst': ms(timeline.burstStart),
    '--rv-burst-dur': ms(timeline.burstMs),
    '--rv-tile-dur': ms(timeline.gridFlipMs),
    '--rv-land-dur': ms(timeline.landMs),
    '--rv-accent': EFFECT_ACCENTS[effect],
  } as CSSProperties;

  const revealed = phase === 'turning' || phase === 'landed' || order.length === 0;

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the modal dialog itself takes Escape and the skip keys
    <div
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-label="抽選演出"
      tabIndex={-1}
      onKeyDown={trapTab}
      data-reveal-effect={effect}
      data-reveal-phase={phase}
      style={vars}
      className={`rv-root rv-fx-${effect} ${phase === 'playing' ? 'rv-playing' : ''} ${holding ? 'rv-hold' : ''} fixed inset-0 z-overlay overflow-hidden outline-none select-none`}
    >
      <style dangerouslySetInnerHTML={{ __html: REVEAL_CSS }} />

      {aside ? (
        <div className="absolute top-[calc(env(safe-area-inset-top)+0.75rem)] left-[calc(env(safe-area-inset-left)+0.75rem)] z-10 max-w-[calc(100%-8.5rem)]">
          {aside}
        </div>
      ) : null}

      {phase !== 'landed' ? (
        <button
          type="button"
          onClick={finish}
          className="absolute top-[calc(env(safe-area-inset-top)+0.75rem)] right-[calc(env(safe-area-inset-right)+0.75rem)] z-10 inline-flex min-h-11 items-center gap-1 rounded-full border border-white/50 bg-black/40 px-4 text-sm font-bold text-white backdrop-blur-sm hover:bg-black/60"
        >
          スキップ<span aria-hidden="true">»</span>
        </button>
      ) : null}

      {phase === 'sealed' ? (
        <div className="rv-stage rv-sealed-stage flex-col gap-10 px-4">
          <div aria-hidden="true" className="rv-pack-drop cursor-pointer" onClick={open}>
            <PackArt />
          </div>
          <button
            type="button"
            onClick={open}
            className={buttonClassName({ size: 'lg', className: 'w-full max-w-xs' })}
          >
            開封する
          </button>
        </div>
      ) : null}

      {phase === 'playing' ? <PackStage timeline={timeline} /> : null}
      {phase === 'playing' && holding ? (
        <p className="absolute inset-x-0 bottom-[calc(env(safe-area-inset-bottom)+2rem)] text-center text-sm font-bold text-white">
          カードを準備しています…
        </p>
      ) : null}

      {revealed ? (
        <div
          data-reveal-landing=""
          className="rv-land absolute inset-0 flex flex-col items-center overflow-x-hidden overflow-y-auto px-4 pt-[calc(env(safe-area-inset-top)+4.25rem)] pb-[calc(env(safe-area-inset-bottom)+1.5rem)]"
          onAnimationEnd={(event) => {
            // A multi-draw lands when its grid has turned (the sequence's timer).
            if (!multi && event.target === event.currentTarget && event.animationName === 'rv-land-in') landed();
          }}
        >
          {best && multi ? (
            <MultiLanding
              order={order}
              turned={turned}
              landed={phase === 'landed'}
              onTurn={turn}
              onResult={finish}
              resultButton={resultButton}
            />
          ) : best ? (
            <SingleLanding best={best} effect={effect} onResult={finish} resultButton={resultButton} />
          ) : (
            <div className="my-auto flex flex-col items-center gap-4 text-center">
              <p className="text-base font-bold">表示できる抽選結果がありません。</p>
              <button ref={resultButton} type="button" onClick={finish} className={buttonClassName({ size: 'lg' })}>
                閉じる
              </button>
            </div>
          )}
        </div>
      ) : null}

      <p role="status" aria-live="polite" className="sr-only">
        {phase === 'landed' && best ? announcement(best, items.length) : ''}
      </p>
    </div>
  );
}

/** The pack shaking through its colour steps, the promotion, the burst (decorative). */
function PackStage({ timeline }: { timeline: ReturnType<typeof revealTimeline> }) {
  return (
    <div className="rv-stage rv-playing-stage" aria-hidden="true">
      <div className="rv-glows">
        {timeline.steps.map((step, index) => (
          <div
            key={index}
            className="rv-glow"
            style={
              {
                '--rv-c': STEP_COLOURS[step],
                animationDelay: ms(timeline.chargeStart + index * timeline.stepMs),
              } as CSSProperties
            }
          />
        ))}
        {timeline.promotion ? (
          <div
            className={`rv-glow rv-glow-${timeline.promotion}`}
            style={{ animationDelay: ms(timeline.promotionStart) }}
          />
        ) : null}
      </div>
      <div className="rv-pack-drop">
        <div className="rv-pack-swell">
          <div className="rv-pack-shake">
            <div className="rv-pack-burst">
              <PackArt />
            </div>
          </div>
        </div>
      </div>
      {timeline.promotion === 'rainbow' ? (
        <>
          <div className="rv-sweep" />
          <p className="rv-promo-text">昇格！</p>
        </>
      ) : null}
      {timeline.promotion === 'lastone' ? <p className="rv-lo-banner">ラストワン賞</p> : null}
      <div className="rv-rays" />
      <div className="rv-flash" />
    </div>
  );
}

/** A single card's landing: its tier, the card (its art decoded before it shows), details, 結果を見る. */
export function SingleLanding({
  best,
  effect,
  onResult,
  resultButton,
}: {
  best: RevealItem;
  effect: RevealItem['effect'];
  onResult: () => void;
  resultButton: React.RefObject<HTMLButtonElement | null>;
}) {
  const details = cardDetails(best);
  return (
    <div className="my-auto flex w-full max-w-sm flex-col items-center text-center" data-reveal-single="">
      {best.isLastOne || effect === 'lastone' ? <p className="rv-lo-ribbon">LAST ONE</p> : null}
      <p className="mb-4 flex items-center gap-2 text-2xl font-black">
        <span className="rv-badge">{best.tierLabel}</span>
        <span>獲得！</span>
      </p>
      <div className="rv-land-card">
        <div className="rv-aura" aria-hidden="true" />
        <div className="rv-frame">
          <Image src={best.imagePath} alt={`${best.cardName}のカード画像`} width={artWidth(1)} height={349} priority />
        </div>
        {effect === 'gold' || effect === 'rainbow' || effect === 'lastone'
          ? SPARKS.map((spark, index) => (
              <span
                key={index}
                aria-hidden="true"
                className="rv-spark"
                style={{
                  left: spark.left,
                  top: spark.top,
                  animationDelay: spark.delay,
                  scale: String(spark.scale),
                }}
              />
            ))
          : null}
      </div>
      <h2 className="mt-5 text-lg leading-snug font-black break-words text-white">{best.cardName}</h2>
      {details ? (
        <p className="mt-2 flex flex-wrap justify-center gap-1.5">
          {[best.rarity, best.cardGrade].filter(Boolean).map((tag) => (
            <span key={tag} className="rounded-md border border-white/60 px-2 py-0.5 text-xs font-bold">
              {tag}
            </span>
          ))}
        </p>
      ) : null}
      <p className="mt-2 text-sm text-white/80">{`コイン交換 ${formatCoins(best.conversionValue)}コイン`}</p>
      <button
        ref={resultButton}
        type="button"
        onClick={onResult}
        className={buttonClassName({ size: 'lg', fullWidth: true, className: 'mt-6 max-w-xs' })}
      >
        結果を見る
      </button>
    </div>
  );
}

/**
 * A multi-draw: every card face down in a grid (a 100連 as small tiles), turning one after another in
 * draw order, the best one last (a tap turns a card at once). A card's face (art, tier badge) exists
 * only once it has turned; the headline (「10連の結果・当たり4枚」「A賞 獲得！」) once every card has.
 */
export function MultiLanding({
  order,
  turned,
  landed,
  onTurn,
  onResult,
  resultButton,
}: {
  order: RevealItem[];
  turned: boolean[];
  landed: boolean;
  onTurn: (index: number) => void;
  onResult: () => void;
  resultButton: React.RefObject<HTMLButtonElement | null>;
}) {
  const best = order[order.length - 1];
  const bestAt = order.length - 1;
  const large = order.length > 10;
  const hits = order.filter((item) => isHitEffect(item.effect)).length;
  const turnedCount = turned.filter(Boolean).length;
  const waitingForLast = !landed && turnedCount === order.length - 1 && !turned[bestAt];
  return (
    <div
      className="my-auto flex w-full max-w-xl flex-col items-center text-center"
      data-reveal-grid={large ? 'fast' : 'cards'}
    >
      {landed ? (
        <>
          {best.isLastOne ? <p className="rv-lo-ribbon">LAST ONE</p> : null}
          <p className="text-sm font-bold text-white/80">
            {`${order.length}連の結果`}
            {hits > 0 ? `・当たり${hits}枚` : ''}
          </p>
          <p className="mt-1 mb-3 flex items-center gap-2 text-2xl font-black">
            <span className="rv-badge">{best.tierLabel}</span>
            <span>獲得！</span>
          </p>
        </>
      ) : (
        // The same room as the headline, so the grid does not move when it lands.
        <>
          <p className="text-sm font-bold text-white/80">{`${order.length}連`}</p>
          <p className="mt-1 mb-3 flex min-h-[2.6rem] items-center text-base font-bold" data-testid="reveal-progress">
            {waitingForLast ? '最後の1枚…（タップでめくる）' : `めくっています ${turnedCount}/${order.length}`}
          </p>
        </>
      )}
      <ul
        className={`rv-grid grid w-full ${large ? 'grid-cols-10 gap-1' : 'grid-cols-5 gap-2'}`}
        aria-label="引いたカード"
      >
        {order.map((item, index) =>
          turned[index] ? (
            <li
              key={item.prizeId}
              className={`rv-tile rv-turned ${isHitEffect(item.effect) ? `rv-hit rv-hit-${item.effect}` : ''} ${index === bestAt ? 'rv-best' : ''}`}
              data-turned=""
              data-tier={item.tierLabel}
              data-best={index === bestAt ? '' : undefined}
            >
              <div className="rv-tile-inner">
                <div className="rv-tile-back" aria-hidden="true" />
                <div className="rv-tile-front">
                  <Image
                    src={item.imagePath}
                    alt={`${item.tierLabel} ${item.cardName}`}
                    width={artWidth(order.length)}
                    height={large ? 90 : 168}
                    priority
                  />
                  <span aria-hidden="true" className={`rv-tile-badge rv-tb-${item.effect}`}>
                    {tierBadge(item, large ? 'small' : 'large')}
                  </span>
                </div>
              </div>
            </li>
          ) : (
            <li key={item.prizeId} className={`rv-tile ${index === bestAt && waitingForLast ? 'rv-next' : ''}`}>
              <button
                type="button"
                className="rv-tile-down"
                aria-label={`${index + 1}枚目をめくる`}
                onClick={() => onTurn(index)}
              />
            </li>
          ),
        )}
      </ul>
      {landed ? (
        <>
          <h2 className="mt-4 text-base leading-snug font-black break-words text-white">{best.cardName}</h2>
          <p className="mt-1 text-sm text-white/80">{`コイン交換 ${formatCoins(best.conversionValue)}コイン`}</p>
          <button
            ref={resultButton}
            type="button"
            onClick={onResult}
            className={buttonClassName({ size: 'lg', fullWidth: true, className: 'mt-4 max-w-xs' })}
          >
            結果を見る
          </button>
        </>
      ) : null}
    </div>
  );
}

/** The sealed foil pack (decorative). */
function PackArt() {
  return (
    <div className="rv-pack">
      <span className="rv-pack-star">✦</span>
      <span className="rv-pack-name">STELLA</span>
      <span className="rv-pack-sub">TRADING CARD ORIPA</span>
    </div>
  );
}
