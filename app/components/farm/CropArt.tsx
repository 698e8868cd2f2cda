// A crop drawn in SVG for each growth stage (0 seed, 1 sprout, 2 young plant, 3 ripe, 4 withered) and
// each art the seed table may name (FARM_CROP_ARTS). Hand-drawn shapes, a few hundred bytes each: no
// images to load, sharp at any size. Purely decorative: the plot button carries the words.
import type { ReactNode } from 'react';
import type { GrowthStage } from '#modules/farm/browser';

const LEAF = '#3f9b3a';
const LEAF_LIGHT = '#6cc04a';
const STEM = '#2f7d32';

/** One decimal is plenty at this size (and keeps the markup short). */
const r = (n: number) => Math.round(n * 10) / 10;

/** A leaf from the stem at (x, y), pointing left (-1) or right (1). */
const leaf = (x: number, y: number, side: 1 | -1, size = 10, fill = LEAF) => (
  <path
    d={`M${x} ${r(y)} q${r(side * size * 0.6)} ${r(-size * 0.9)} ${r(side * size * 1.2)} ${r(-size * 0.3)} q${r(-side * size * 0.4)} ${r(size * 0.8)} ${r(-side * size * 1.2)} ${r(size * 0.3)}z`}
    fill={fill}
  />
);

const stem = (height: number, x = 32) => (
  <path d={`M${x} 54 V${54 - height}`} stroke={STEM} strokeWidth={3} strokeLinecap="round" />
);

/** Root crops show their shoulders above the soil. */
const root = (color: string, leaves: string) => (
  <>
    {leaf(32, 44, -1, 12, leaves)}
    {leaf(32, 44, 1, 12, leaves)}
    {leaf(32, 42, -1, 8, LEAF_LIGHT)}
    {leaf(32, 42, 1, 8, LEAF_LIGHT)}
    <ellipse cx={32} cy={52} rx={9} ry={7} fill={color} stroke="#0002" />
  </>
);

const RIPE: Record<string, () => ReactNode> = {
  radish: () => root('#fbfbf5', LEAF),
  carrot: () => root('#f08a24', LEAF_LIGHT),
  tomato: () => (
    <>
      {stem(30)}
      {leaf(32, 40, -1, 11)}
      {leaf(32, 32, 1, 11)}
      {leaf(32, 28, -1, 9)}
      <circle cx={24} cy={42} r={6} fill="#e53935" />
      <circle cx={40} cy={38} r={6} fill="#e53935" />
      <circle cx={30} cy={28} r={5} fill="#ef5350" />
    </>
  ),
  corn: () => (
    <>
      {stem(40)}
      {leaf(32, 48, -1, 14)}
      {leaf(32, 36, 1, 14)}
      <ellipse cx={38} cy={30} rx={5} ry={11} fill="#f6c83b" stroke="#c99a10" />
      <path d="M34 40 q4 -14 8 -18 q-2 12 -6 20z" fill={LEAF_LIGHT} />
      <path d="M32 14 l-3 -4 M32 14 l3 -4" stroke="#c9a25a" strokeWidth={2} />
    </>
  ),
  strawberry: () => (
    <>
      {leaf(32, 48, -1, 12)}
      {leaf(32, 48, 1, 12)}
      {leaf(32, 44, 1, 9, LEAF_LIGHT)}
      <path d="M18 44 q5 -5 10 0 q-2 9 -5 10 q-3 -1 -5 -10z" fill="#e0283e" />
      <path d="M36 46 q5 -5 10 0 q-2 9 -5 10 q-3 -1 -5 -10z" fill="#e0283e" />
      <path d="M20 45 h6 M38 47 h6" stroke={LEAF} strokeWidth={2} />
    </>
  ),
  pumpkin: () => (
    <>
      <path d="M10 52 q8 -8 14 -4" stroke={STEM} strokeWidth={2} fill="none" />
      {leaf(14, 48, -1, 8)}
      <ellipse cx={34} cy={44} rx={16} ry={11} fill="#f28c1b" />
      <path d="M34 33 v22 M26 34 q-4 10 0 20 M42 34 q4 10 0 20" stroke="#c96a0c" strokeWidth={1.5} fill="none" />
      <path d="M34 33 l2 -6" stroke="#6d4c1f" strokeWidth={3} strokeLinecap="round" />
    </>
  ),
  eggplant: () => (
    <>
      {stem(32)}
      {leaf(32, 30, -1, 12)}
      {leaf(32, 26, 1, 12)}
      <path d="M26 32 q-8 6 -4 16 q4 4 8 -2 q2 -8 -4 -14z" fill="#5b2a86" />
      <path d="M38 34 q8 6 4 16 q-4 4 -8 -2 q-2 -8 4 -14z" fill="#6a329f" />
      <path d="M24 32 h5 M36 34 h5" stroke={STEM} strokeWidth={3} strokeLinecap="round" />
    </>
  ),
  sunflower: () => (
    <>
      {stem(38)}
      {leaf(32, 44, -1, 12)}
      {leaf(32, 36, 1, 12)}
      <g fill="#f9c80e">
        {[0, 45, 90, 135, 180, 225, 270, 315].map((angle) => (
          <ellipse key={angle} cx={32} cy={8} rx={3.5} ry={6} transform={`rotate(${angle} 32 16)`} />
        ))}
      </g>
      <circle cx={32} cy={16} r={6} fill="#7a4a1d" />
    </>
  ),
};

/** The young plant: most crops alike, the tall ones taller. */
const young = (art: string) => {
  const tall = art === 'corn' || art === 'sunflower';
  const low = art === 'strawberry' || art === 'pumpkin' || art === 'radish' || art === 'carrot';
  const height = tall ? 30 : low ? 12 : 20;
  return (
    <>
      {stem(height)}
      {leaf(32, 54 - height * 0.4, -1, 11)}
      {leaf(32, 54 - height * 0.6, 1, 11)}
      {leaf(32, 54 - height, -1, 8, LEAF_LIGHT)}
      {leaf(32, 54 - height, 1, 8, LEAF_LIGHT)}
    </>
  );
};

/** The crop at a stage, for an art (an art the page does not know is drawn as a generic plant). */
export function CropArt({ art, stage, className = '' }: { art: string; stage: GrowthStage; className?: string }) {
  let plant: ReactNode;
  if (stage === 0) {
    plant = (
      <>
        <ellipse cx={32} cy={52} rx={17} ry={7} fill="#b07a45" stroke="#5c3a1c" />
        <ellipse cx={26} cy={49} rx={3} ry={2.2} fill="#f1d9a8" />
        <ellipse cx={33} cy={47.5} rx={3} ry={2.2} fill="#f1d9a8" />
        <ellipse cx={39} cy={49.5} rx={3} ry={2.2} fill="#f1d9a8" />
      </>
    );
  } else if (stage === 1) {
    plant = (
      <>
        {stem(8)}
        {leaf(32, 47, -1, 8, LEAF_LIGHT)}
        {leaf(32, 47, 1, 8, LEAF_LIGHT)}
      </>
    );
  } else if (stage === 2) {
    plant = young(art);
  } else if (stage === 3) {
    plant = (RIPE[art] ?? (() => young(art)))();
  } else {
    plant = (
      <>
        <path d="M32 54 q0 -14 10 -18" stroke="#8b6b3d" strokeWidth={3} fill="none" strokeLinecap="round" />
        <path d="M40 37 q6 2 6 10 q-6 -2 -6 -10z" fill="#a1824a" />
        <path d="M32 48 q-8 -2 -10 4 q6 2 10 -4z" fill="#9c7b45" />
      </>
    );
  }
  return (
    <svg viewBox="4 4 56 54" aria-hidden="true" focusable="false" className={className}>
      <g className={stage === 4 || stage === 0 ? undefined : 'farm-sway'}>{plant}</g>
    </svg>
  );
}

/** Small icons drawn inline (an emoji font is not on every device the shop runs in). */
export function FarmIcon({ name, className = 'size-4' }: { name: 'drop' | 'coin' | 'lock'; className?: string }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false" className={`inline-block shrink-0 ${className}`}>
      {name === 'drop' ? (
        <path
          d="M8 1.5c2.5 3.4 4.5 5.8 4.5 8.2a4.5 4.5 0 0 1-9 0C3.5 7.3 5.5 4.9 8 1.5z"
          fill="#38bdf8"
          stroke="#0369a1"
        />
      ) : name === 'coin' ? (
        <>
          <circle cx={8} cy={8} r={6.5} fill="#f5b301" stroke="#a16207" />
          <circle cx={8} cy={8} r={4} fill="none" stroke="#fde68a" />
        </>
      ) : (
        <>
          <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth={1.6} />
          <rect x={3.5} y={7} width={9} height={7} rx={1.5} fill="currentColor" />
        </>
      )}
    </svg>
  );
}
