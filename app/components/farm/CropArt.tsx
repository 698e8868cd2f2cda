// A crop drawn in SVG for each growth stage (0 seed, 1 sprout, 2 young plant, 3 ripe, 4 withered) and
// each art the seed table may name (FARM_CROP_ARTS). Hand-drawn shapes kept as path data (the page's
// script budget: a list of strings is smaller than an element per shape), no images to load, sharp at
// any size. Purely decorative: the plot button carries the words.
import type { GrowthStage } from '#modules/farm/browser';

/** A shape: its path, its fill ('none' for a line), and a stroke colour and width for lines and outlines. */
type Shape = [d: string, fill: string, stroke?: string, width?: number];

const LEAF = '#3f9b3a';
const LEAF_LIGHT = '#6cc04a';
const STEM = '#2f7d32';
const RED = '#e53935';

/** One decimal is plenty at this size (and keeps the markup short). */
const r = (n: number) => Math.round(n * 10) / 10;

/** An ellipse (a circle when ry is left out) as path data. */
const oval = (cx: number, cy: number, rx: number, ry = rx) =>
  `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0`;

/** A leaf from the stem at (x, y), pointing left (-1) or right (1). */
const leaf = (x: number, y: number, side: 1 | -1, size = 10, fill = LEAF): Shape => [
  `M${x} ${r(y)}q${r(side * size * 0.6)} ${r(-size * 0.9)} ${r(side * size * 1.2)} ${r(-size * 0.3)}q${r(-side * size * 0.4)} ${r(size * 0.8)} ${r(-side * size * 1.2)} ${r(size * 0.3)}z`,
  fill,
];

const stem = (height: number): Shape => [`M32 54V${54 - height}`, 'none', STEM, 3];

/** Root crops show their shoulders above the soil. */
const root = (color: string, leaves: string): Shape[] => [
  leaf(32, 44, -1, 12, leaves),
  leaf(32, 44, 1, 12, leaves),
  leaf(32, 42, -1, 8, LEAF_LIGHT),
  leaf(32, 42, 1, 8, LEAF_LIGHT),
  [oval(32, 52, 9, 7), color, '#0002', 1],
];

const RIPE: Record<string, () => Shape[]> = {
  radish: () => root('#fbfbf5', LEAF),
  carrot: () => root('#f08a24', LEAF_LIGHT),
  tomato: () => [
    stem(30),
    leaf(32, 40, -1, 11),
    leaf(32, 32, 1, 11),
    leaf(32, 28, -1, 9),
    [oval(24, 42, 6), RED],
    [oval(40, 38, 6), RED],
    [oval(30, 28, 5), '#ef5350'],
  ],
  corn: () => [
    stem(40),
    leaf(32, 48, -1, 14),
    leaf(32, 36, 1, 14),
    [oval(38, 30, 5, 11), '#f6c83b', '#c99a10', 1],
    ['M34 40q4-14 8-18q-2 12-6 20z', LEAF_LIGHT],
    ['M32 14l-3-4M32 14l3-4', 'none', '#c9a25a', 2],
  ],
  strawberry: () => [
    leaf(32, 48, -1, 12),
    leaf(32, 48, 1, 12),
    leaf(32, 44, 1, 9, LEAF_LIGHT),
    ['M18 44q5-5 10 0q-2 9-5 10q-3-1-5-10zM36 46q5-5 10 0q-2 9-5 10q-3-1-5-10z', '#e0283e'],
    ['M20 45h6M38 47h6', 'none', LEAF, 2],
  ],
  pumpkin: () => [
    ['M10 52q8-8 14-4', 'none', STEM, 2],
    leaf(14, 48, -1, 8),
    [oval(34, 44, 16, 11), '#f28c1b'],
    ['M34 33v22M26 34q-4 10 0 20M42 34q4 10 0 20', 'none', '#c96a0c', 1.5],
    ['M34 33l2-6', 'none', '#6d4c1f', 3],
  ],
  eggplant: () => [
    stem(32),
    leaf(32, 30, -1, 12),
    leaf(32, 26, 1, 12),
    ['M26 32q-8 6-4 16q4 4 8-2q2-8-4-14z', '#5b2a86'],
    ['M38 34q8 6 4 16q-4 4-8-2q-2-8 4-14z', '#6a329f'],
    ['M24 32h5M36 34h5', 'none', STEM, 3],
  ],
  sunflower: () => [
    stem(38),
    leaf(32, 44, -1, 12),
    leaf(32, 36, 1, 12),
    // Eight petals round the centre (32, 16).
    [
      [0, 45, 90, 135, 180, 225, 270, 315]
        .map((angle) => {
          const a = (angle * Math.PI) / 180;
          return oval(r(32 + 8 * Math.sin(a)), r(16 - 8 * Math.cos(a)), 3.5);
        })
        .join(''),
      '#f9c80e',
    ],
    [oval(32, 16, 6), '#7a4a1d'],
  ],
};

/** The young plant: most crops alike, the tall ones taller. */
function young(art: string): Shape[] {
  const height = art === 'corn' || art === 'sunflower' ? 30 : /strawberry|pumpkin|radish|carrot/.test(art) ? 12 : 20;
  return [
    stem(height),
    leaf(32, 54 - height * 0.4, -1, 11),
    leaf(32, 54 - height * 0.6, 1, 11),
    leaf(32, 54 - height, -1, 8, LEAF_LIGHT),
    leaf(32, 54 - height, 1, 8, LEAF_LIGHT),
  ];
}

const SEED: Shape[] = [
  [oval(32, 52, 17, 7), '#b07a45', '#5c3a1c', 1],
  [oval(26, 49, 3, 2.2) + oval(33, 47.5, 3, 2.2) + oval(39, 49.5, 3, 2.2), '#f1d9a8'],
];
const WITHERED: Shape[] = [
  ['M32 54q0-14 10-18', 'none', '#8b6b3d', 3],
  ['M40 37q6 2 6 10q-6-2-6-10z', '#a1824a'],
  ['M32 48q-8-2-10 4q6 2 10-4z', '#9c7b45'],
];

/** The shapes of a crop at a stage (an art the page does not know is drawn as a generic plant). */
export function cropShapes(art: string, stage: GrowthStage): Shape[] {
  if (stage === 0) return SEED;
  if (stage === 1) return [stem(8), leaf(32, 47, -1, 8, LEAF_LIGHT), leaf(32, 47, 1, 8, LEAF_LIGHT)];
  if (stage === 2) return young(art);
  if (stage === 3) return (RIPE[art] ?? (() => young(art)))();
  return WITHERED;
}

/** The crop at a stage, for an art. */
export function CropArt({ art, stage, className = '' }: { art: string; stage: GrowthStage; className?: string }) {
  return (
    <svg viewBox="4 4 56 54" aria-hidden="true" focusable="false" className={className}>
      <g className={stage === 4 || stage === 0 ? undefined : 'farm-sway'} strokeLinecap="round">
        {cropShapes(art, stage).map(([d, fill, stroke, width], index) => (
          <path key={index} d={d} fill={fill} stroke={stroke} strokeWidth={width} />
        ))}
      </g>
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
