// Writes the demo shop's original, text-free SVG art to public/demo/ (deterministic: same bytes every run).
// Each demo card name has one picture (db/demo/cards.ts), so a card looks the same in every pack; the
// pictures carry no text, since the server rasterises them and may have no Japanese font.
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_CARDS, type DemoCard } from '../db/demo/cards';

type Rng = () => number;
type Pt = readonly [number, number];

/**
 * Small seeded PRNG (mulberry32), so the art is identical on every machine and run.
 * @example const r = mulberry32(1); r() // 0.627…
 */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: turns a file name into a seed, so each file's randomness is independent of the others. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

// ---------- tiny SVG helpers (numbers rounded to keep files small: 1 px when ≥ 100, else 0.1 px) ----------

const n = (v: number): string => String(Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 10) / 10);
const pts = (points: readonly Pt[]): string => points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
const between = (rng: Rng, a: number, b: number): number => a + (b - a) * rng();
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

type Stop = readonly [offset: number, color: string, opacity?: number];

function stopsXml(stops: readonly Stop[]): string {
  return stops
    .map(([o, c, op]) => `<stop offset="${o}" stop-color="${c}"${op === undefined ? '' : ` stop-opacity="${op}"`}/>`)
    .join('');
}

function linear(
  id: string,
  stops: readonly Stop[],
  x1 = 0,
  y1 = 0,
  x2 = 1,
  y2 = 1,
  spread?: 'repeat' | 'reflect',
): string {
  const extra = spread ? ` spreadMethod="${spread}"` : '';
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"${extra}>${stopsXml(stops)}</linearGradient>`;
}

function radial(id: string, stops: readonly Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopsXml(stops)}</radialGradient>`;
}

function svg(width: number, height: number, defs: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs}</defs>${body}</svg>\n`
  );
}

function starPoints(cx: number, cy: number, outer: number, inner: number, count: number, rotation = -90): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i < count * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = ((rotation + (i * 180) / count) * Math.PI) / 180;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

function polyPoints(cx: number, cy: number, r: number, sides: number, rotation = -90): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i < sides; i++) {
    const a = ((rotation + (i * 360) / sides) * Math.PI) / 180;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** Four-pointed twinkle with concave sides: the "kira" sparkle of card shops. */
function sparkle(cx: number, cy: number, r: number, fill: string, opacity = 1): string {
  const k = n(r * 0.18);
  const j = n(r - r * 0.18);
  const R = n(r);
  return (
    `<path d="M${n(cx)} ${n(cy - r)}q${k} ${j} ${R} ${R}q-${j} ${k}-${R} ${R}q-${k}-${j}-${R}-${R}q${j}-${k} ${R}-${R}z" ` +
    `fill="${fill}"${opacity === 1 ? '' : ` opacity="${opacity}"`}/>`
  );
}

/** Sunburst wedges around a centre. */
function rays(
  cx: number,
  cy: number,
  length: number,
  count: number,
  fill: string,
  opacity: number,
  rotation = 0,
): string {
  let d = '';
  const half = 180 / count / 2;
  for (let i = 0; i < count; i++) {
    const a = rotation + (i * 360) / count;
    const a1 = ((a - half) * Math.PI) / 180;
    const a2 = ((a + half) * Math.PI) / 180;
    d += `M${n(cx)} ${n(cy)}L${n(cx + length * Math.cos(a1))} ${n(cy + length * Math.sin(a1))}L${n(cx + length * Math.cos(a2))} ${n(cy + length * Math.sin(a2))}Z`;
  }
  return `<path d="${d}" fill="${fill}" opacity="${opacity}"/>`;
}

/**
 * Honeycomb patches fading out from the top-left and bottom-right corners of a rectangle.
 * Explicit paths, not a <pattern>: librsvg renders patterns very slowly at 4K widths.
 */
function hexCorners(
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
  reach: number,
  stroke: string,
  opacity: number,
): string {
  const tw = Math.sqrt(3) * r;
  const a = r * 0.9;
  const b = (a * Math.sqrt(3)) / 2;
  // Whole-pixel steps: invisible at these sizes, and they keep the path short.
  const [B, A, H] = [Math.round(b), Math.round(a), Math.round(a / 2)];
  const step = `${B} ${H}v${A}l-${B} ${H}l-${B}-${H}v-${A}z`;
  const buckets = ['', '', ''];
  for (let row = 0; row * r * 1.5 <= h + r; row++) {
    for (let col = 0; col * tw <= w + tw; col++) {
      const cx = x + col * tw + (row % 2) * (tw / 2);
      const cy = y + row * r * 1.5;
      const dist = Math.min(Math.hypot(cx - x, cy - y), Math.hypot(x + w - cx, y + h - cy)) / reach;
      if (dist >= 1) continue;
      buckets[Math.floor(dist * 3)] += `M${Math.round(cx)} ${Math.round(cy - a)}l${step}`;
    }
  }
  return buckets
    .map((d, i) =>
      d
        ? `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="2.5" opacity="${n(opacity * (1 - i / 3))}"/>`
        : '',
    )
    .join('');
}

function confetti(
  rng: Rng,
  count: number,
  w: number,
  h: number,
  colors: readonly string[],
  avoid?: { cx: number; cy: number; r: number },
): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    let x = 0;
    let y = 0;
    do {
      x = between(rng, 20, w - 20);
      y = between(rng, 20, h - 20);
    } while (avoid && Math.hypot(x - avoid.cx, y - avoid.cy) < avoid.r);
    const s = between(rng, 7, 16);
    const c = pick(rng, colors);
    const rot = Math.round(between(rng, 0, 180));
    out +=
      i % 3 === 0
        ? `<polygon points="${pts([
            [x, y - s],
            [x + s, y + s * 0.8],
            [x - s, y + s * 0.8],
          ])}" fill="${c}" transform="rotate(${rot} ${n(x)} ${n(y)})"/>`
        : `<rect x="${n(x - s / 2)}" y="${n(y - s / 4)}" width="${n(s)}" height="${n(s / 2)}" rx="2" fill="${c}" transform="rotate(${rot} ${n(x)} ${n(y)})"/>`;
  }
  return out;
}

function sparkles(
  rng: Rng,
  count: number,
  w: number,
  h: number,
  colors: readonly string[],
  min: number,
  max: number,
  x0 = 0,
  y0 = 0,
): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    out += sparkle(
      x0 + between(rng, 30, w - 30),
      y0 + between(rng, 30, h - 30),
      between(rng, min, max),
      pick(rng, colors),
      Math.round(between(rng, 0.6, 1) * 100) / 100,
    );
  }
  return out;
}

// ---------- palettes ----------

interface Scheme {
  bg: readonly [string, string, string];
  accent: string;
  accent2: string;
  light: string;
}

/** One mood per pack (flame, ocean, thunder, mystic, forest, sakura, premium night, ice, volcano, neon, royal, prism). */
const PACK_SCHEMES: readonly Scheme[] = [
  { bg: ['#2b0010', '#8e0c24', '#e0301e'], accent: '#ff8a1f', accent2: '#ffd23f', light: '#fff1c9' },
  { bg: ['#011633', '#04457f', '#0a8fd0'], accent: '#35e0ff', accent2: '#7dffcf', light: '#e8fbff' },
  { bg: ['#1d1300', '#7a4c00', '#f0a500'], accent: '#ffe14d', accent2: '#ff7a00', light: '#fffbe0' },
  { bg: ['#12002b', '#3d0f85', '#8a2be2'], accent: '#ff5cf0', accent2: '#8fd0ff', light: '#f3e8ff' },
  { bg: ['#00261a', '#0b5e3c', '#23a25a'], accent: '#a6ff5c', accent2: '#ffe45c', light: '#f1ffd9' },
  { bg: ['#3b0a2c', '#b8326e', '#ff8fb8'], accent: '#ffd1e3', accent2: '#fff07a', light: '#ffffff' },
  { bg: ['#04060d', '#141b33', '#2d3a66'], accent: '#e8c15a', accent2: '#fff0b0', light: '#fff8e1' },
  { bg: ['#062038', '#1b6ea8', '#7fd6ff'], accent: '#e0f7ff', accent2: '#b3ecff', light: '#ffffff' },
  { bg: ['#1a0500', '#6b1400', '#ff4d00'], accent: '#ffb300', accent2: '#ff2d55', light: '#ffe7c2' },
  { bg: ['#06001f', '#1a0a5e', '#3b0d8c'], accent: '#00f0ff', accent2: '#ff2bd6', light: '#e6fdff' },
  { bg: ['#070b33', '#1a2a8a', '#3553d6'], accent: '#ffd86b', accent2: '#c9d3ff', light: '#ffffff' },
  { bg: ['#120d24', '#2e1a57', '#5a2d8c'], accent: '#ff6fd8', accent2: '#5ef0ff', light: '#ffffff' },
];

interface Element {
  frame: readonly [string, string];
  sky: readonly [string, string];
  body: string;
  belly: string;
  accent: string;
  dark: string;
}

const ELEMENTS: readonly Element[] = [
  {
    frame: ['#ffc48a', '#c2410c'],
    sky: ['#ffe7b0', '#ff6a3d'],
    body: '#ff7b39',
    belly: '#ffe2a8',
    accent: '#ffd23f',
    dark: '#4a1200',
  },
  {
    frame: ['#a8ddff', '#1e5fa8'],
    sky: ['#d5f5ff', '#2b8fd9'],
    body: '#3fa9f5',
    belly: '#dcf5ff',
    accent: '#ffffff',
    dark: '#0b2a55',
  },
  {
    frame: ['#c6f59c', '#2f7d32'],
    sky: ['#efffd6', '#53b04a'],
    body: '#5cc46b',
    belly: '#ecffd4',
    accent: '#ffe066',
    dark: '#0f3716',
  },
  {
    frame: ['#fff29a', '#c79a00'],
    sky: ['#fffbd6', '#ffbf1a'],
    body: '#ffd21f',
    belly: '#fff6c6',
    accent: '#ff7a00',
    dark: '#432d00',
  },
  {
    frame: ['#f5c2ff', '#8e2bb8'],
    sky: ['#ffe6fc', '#b65bf0'],
    body: '#c56cf0',
    belly: '#fbe6ff',
    accent: '#ff5fae',
    dark: '#36094e',
  },
  {
    frame: ['#a5abc2', '#272b40'],
    sky: ['#555a7d', '#141726'],
    body: '#40456a',
    belly: '#9096ba',
    accent: '#ff3b6b',
    dark: '#07080f',
  },
  {
    frame: ['#eef2f7', '#76838f'],
    sky: ['#f6f9fc', '#9fb0c3'],
    body: '#b3c0cf',
    belly: '#f0f4f9',
    accent: '#33c6ff',
    dark: '#222c38',
  },
  {
    frame: ['#ffe09a', '#8a5a00'],
    sky: ['#3a2680', '#12092e'],
    body: '#5b3fd9',
    belly: '#ffd98a',
    accent: '#ff9a3c',
    dark: '#120829',
  },
];

const GOLD: readonly [string, string] = ['#fff2b3', '#b07a10'];
const FOIL_STOPS: readonly Stop[] = [
  [0, '#ff4fa3'],
  [0.2, '#ffd84f'],
  [0.4, '#5cffb0'],
  [0.6, '#4fc8ff'],
  [0.8, '#a45cff'],
  [1, '#ff4fa3'],
];

// ---------- small card used in fans (packs, banners) ----------

type EmblemKind = 'star' | 'hex' | 'ring' | 'diamond' | 'moon';

function emblem(kind: EmblemKind, cx: number, cy: number, r: number, fill: string, stroke: string): string {
  const sw = n(r * 0.08);
  switch (kind) {
    case 'star':
      return `<polygon points="${pts(starPoints(cx, cy, r, r * 0.45, 5))}" fill="${fill}" stroke="${stroke}" stroke-width="${sw}" stroke-linejoin="round"/>`;
    case 'hex':
      return (
        `<polygon points="${pts(polyPoints(cx, cy, r, 6))}" fill="${fill}" stroke="${stroke}" stroke-width="${sw}"/>` +
        `<polygon points="${pts(polyPoints(cx, cy, r * 0.5, 6, -60))}" fill="${stroke}" opacity=".35"/>`
      );
    case 'ring':
      return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r * 0.8)}" fill="none" stroke="${fill}" stroke-width="${n(r * 0.22)}"/>${sparkle(cx, cy, r * 0.55, stroke)}`;
    case 'diamond':
      return (
        `<polygon points="${pts([
          [cx, cy - r],
          [cx + r * 0.7, cy],
          [cx, cy + r],
          [cx - r * 0.7, cy],
        ])}" fill="${fill}" stroke="${stroke}" stroke-width="${sw}"/>` +
        `<polygon points="${pts([
          [cx, cy - r],
          [cx + r * 0.7, cy],
          [cx, cy],
        ])}" fill="#fff" opacity=".4"/>`
      );
    case 'moon': {
      // Crescent: the outer circle's left side from 60° above to 60° below, back along a flatter arc.
      const x = n(cx + r * 0.5);
      return `<path d="M${x} ${n(cy - r * 0.866)}A${n(r)} ${n(r)} 0 1 0 ${x} ${n(cy + r * 0.866)}A${n(r * 0.95)} ${n(r * 0.95)} 0 0 1 ${x} ${n(cy - r * 0.866)}Z" fill="${fill}" stroke="${stroke}" stroke-width="${sw}" stroke-linejoin="round"/>`;
    }
  }
}

/** A card seen from the front, rotated around (px, py); uses gradients mcF/mcA/foil from the caller's defs. */
function miniCard(
  x: number,
  y: number,
  w: number,
  h: number,
  angle: number,
  px: number,
  py: number,
  kind: EmblemKind,
  emblemFill: string,
  foil: boolean,
): string {
  const inset = w * 0.07;
  const art = `<rect x="${n(x + inset)}" y="${n(y + inset)}" width="${n(w - inset * 2)}" height="${n(h * 0.6)}" rx="${n(w * 0.03)}" fill="url(#mcA)"/>`;
  const box = `<rect x="${n(x + inset)}" y="${n(y + inset * 1.6 + h * 0.6)}" width="${n(w - inset * 2)}" height="${n(h * 0.26)}" rx="${n(w * 0.03)}" fill="#fff" opacity=".85"/>`;
  const lines = [0, 1, 2]
    .map(
      (i) =>
        `<rect x="${n(x + inset * 2)}" y="${n(y + inset * 2.5 + h * 0.6 + i * h * 0.065)}" width="${n((w - inset * 4) * (i === 2 ? 0.55 : 0.85))}" height="${n(h * 0.025)}" rx="${n(h * 0.0125)}" fill="#000" opacity=".18"/>`,
    )
    .join('');
  return (
    `<g transform="rotate(${n(angle)} ${n(px)} ${n(py)})">` +
    `<rect x="${n(x + 6)}" y="${n(y + 10)}" width="${n(w)}" height="${n(h)}" rx="${n(w * 0.06)}" fill="#000" opacity=".3"/>` +
    `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(w * 0.06)}" fill="url(#mcF)" stroke="#fff" stroke-opacity=".7" stroke-width="2"/>` +
    art +
    emblem(kind, x + w / 2, y + inset + h * 0.3, w * 0.22, emblemFill, '#fff') +
    box +
    lines +
    (foil
      ? `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(w * 0.06)}" fill="url(#foil)" opacity=".38"/>`
      : '') +
    `</g>`
  );
}

function fan(
  cx: number,
  baseY: number,
  w: number,
  h: number,
  count: number,
  spread: number,
  kinds: readonly EmblemKind[],
  emblemFill: string,
): string {
  const pivotY = baseY + h * 1.05;
  const middle = Math.floor(count / 2);
  // Outer cards first so the foil centre card sits on top, as in a hand held up to show.
  const order = Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => Math.abs(b - middle) - Math.abs(a - middle) || a - b,
  );
  return order
    .map((i) => {
      const t = count === 1 ? 0 : i / (count - 1) - 0.5;
      return miniCard(
        cx - w / 2,
        baseY,
        w,
        h,
        t * spread,
        cx,
        pivotY,
        kinds[i % kinds.length],
        emblemFill,
        i === middle,
      );
    })
    .join('');
}

// ---------- packs ----------

const PACK_EMBLEMS: readonly EmblemKind[] = ['star', 'diamond', 'hex', 'ring', 'moon'];

function packArt(index: number): string {
  const W = 1200;
  const H = 900;
  const s = PACK_SCHEMES[index];
  const rng = mulberry32(seedOf(`pack-${index}`));
  const cx = 600;
  const cy = 420;
  const defs =
    linear(
      'bg',
      [
        [0, s.bg[0]],
        [0.55, s.bg[1]],
        [1, s.bg[2]],
      ],
      0,
      1,
      1,
      0,
    ) +
    radial('glow', [
      [0, s.light, 0.9],
      [0.25, s.accent, 0.55],
      [1, s.accent, 0],
    ]) +
    radial(
      'vig',
      [
        [0.55, '#000', 0],
        [1, '#000', 0.55],
      ],
      0.5,
      0.5,
      0.75,
    ) +
    linear('mcF', [
      [0, s.light],
      [0.5, s.accent],
      [1, s.bg[1]],
    ]) +
    linear(
      'mcA',
      [
        [0, s.bg[2]],
        [1, s.bg[0]],
      ],
      0,
      0,
      0,
      1,
    ) +
    linear('foil', FOIL_STOPS) +
    linear(
      'floor',
      [
        [0, s.bg[0], 0],
        [1, s.bg[0], 0.9],
      ],
      0,
      0,
      0,
      1,
    );

  const variant = index % 4;
  let backdrop = '';
  if (variant === 0) backdrop = rays(cx, cy, 1100, 28, s.light, 0.09, between(rng, 0, 10));
  if (variant === 1) backdrop = hexCorners(0, 0, W, H, 62, 380, s.light, 0.3) + rays(cx, cy, 1100, 16, s.light, 0.05);
  if (variant === 2) {
    backdrop =
      [520, 420, 320]
        .map(
          (r, i) =>
            `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${s.light}" stroke-width="${18 - i * 5}" opacity="${0.08 + i * 0.03}"/>`,
        )
        .join('') + rays(cx, cy, 1100, 20, s.light, 0.06, 4);
  }
  if (variant === 3) {
    let d = '';
    for (let i = -6; i < 14; i++) d += `M${i * 110} 0l260 0l-520 900l-260 0Z`;
    backdrop = `<path d="${d}" fill="${s.light}" opacity=".06"/>` + rays(cx, cy, 1100, 12, s.light, 0.06);
  }

  const kinds = [pick(rng, PACK_EMBLEMS), PACK_EMBLEMS[index % PACK_EMBLEMS.length], pick(rng, PACK_EMBLEMS)];
  const count = index % 3 === 1 ? 3 : 5;
  const body =
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
    backdrop +
    `<circle cx="${cx}" cy="${cy}" r="560" fill="url(#glow)"/>` +
    `<polygon points="${pts(starPoints(cx, cy, 340, 250, 18, between(rng, 0, 20)))}" fill="${s.accent}" opacity=".22"/>` +
    `<circle cx="${cx}" cy="${cy}" r="372" fill="none" stroke="${s.accent2}" stroke-width="5" stroke-dasharray="4 18" stroke-linecap="round" opacity=".7"/>` +
    `<circle cx="${cx}" cy="${cy}" r="300" fill="none" stroke="${s.light}" stroke-width="2" opacity=".45"/>` +
    fan(cx, 215, 240, 336, count, count === 3 ? 44 : 84, kinds, s.accent2) +
    `<rect y="650" width="${W}" height="250" fill="url(#floor)"/>` +
    `<path d="M0 780C220 720 380 830 600 790S980 720 1200 770V900H0Z" fill="${s.accent}" opacity=".35"/>` +
    `<path d="M0 830C260 790 420 880 640 840S1000 790 1200 820V900H0Z" fill="${s.bg[0]}" opacity=".85"/>` +
    confetti(rng, 18, W, H, [s.accent, s.accent2, s.light], { cx, cy, r: 400 }) +
    sparkles(rng, 11, W, H, [s.light, '#fff', s.accent2], 10, 34) +
    sparkle(cx + 175, 215, 46, '#fff') +
    sparkle(cx - 190, 560, 30, s.light) +
    `<rect width="${W}" height="${H}" fill="url(#vig)"/>`;
  return svg(W, H, defs, body);
}

// ---------- cards ----------

type CreatureKind = 'sprite' | 'bird' | 'drake' | 'golem' | 'crest' | 'fox';
type Rarity = 'C' | 'R' | 'SR' | 'UR';

/** The frame and foil style of each printed rarity (SAR and UR get the gold frame). */
const STYLE_OF: Record<DemoCard['rarity'], Rarity> = { SAR: 'UR', UR: 'UR', SR: 'SR', RR: 'R', R: 'R', C: 'C' };
const CREATURES: readonly CreatureKind[] = ['sprite', 'bird', 'drake', 'golem', 'crest', 'fox'];

function eye(x: number, y: number, r: number, dark: string): string {
  return (
    `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r * 0.85)}" ry="${n(r)}" fill="#fff" stroke="${dark}" stroke-width="4"/>` +
    `<circle cx="${n(x + r * 0.1)}" cy="${n(y + r * 0.12)}" r="${n(r * 0.55)}" fill="${dark}"/>` +
    `<circle cx="${n(x + r * 0.3)}" cy="${n(y - r * 0.15)}" r="${n(r * 0.22)}" fill="#fff"/>`
  );
}

/** Original creatures and emblems built only from basic shapes, centred on (cx, cy) with size s. */
function creature(kind: CreatureKind, cx: number, cy: number, s: number, e: Element): string {
  const ol = `stroke="${e.dark}" stroke-width="5" stroke-linejoin="round"`;
  switch (kind) {
    case 'sprite':
      return (
        [0, 1, 2]
          .map(
            (i) =>
              `<circle cx="${n(cx + s * (0.62 + i * 0.16))}" cy="${n(cy + s * (0.55 - i * 0.1))}" r="${n(s * (0.2 - i * 0.03))}" fill="${i === 1 ? e.accent : e.belly}" ${ol}/>`,
          )
          .join('') +
        `<path d="M${n(cx + s * 0.05)} ${n(cy - s * 0.78)}Q${n(cx + s * 0.2)} ${n(cy - s * 1.0)} ${n(cx + s * 0.12)} ${n(cy - s * 1.12)}" fill="none" stroke="${e.dark}" stroke-width="5" stroke-linecap="round"/>` +
        `<polygon points="${pts(starPoints(cx + s * 0.12, cy - s * 1.16, s * 0.16, s * 0.07, 5, -80))}" fill="${e.accent}" ${ol}/>` +
        `<circle cx="${n(cx - s * 0.52)}" cy="${n(cy - s * 0.6)}" r="${n(s * 0.2)}" fill="${e.body}" ${ol}/>` +
        `<circle cx="${n(cx + s * 0.52)}" cy="${n(cy - s * 0.6)}" r="${n(s * 0.2)}" fill="${e.body}" ${ol}/>` +
        `<circle cx="${n(cx - s * 0.52)}" cy="${n(cy - s * 0.6)}" r="${n(s * 0.1)}" fill="${e.belly}"/>` +
        `<circle cx="${n(cx + s * 0.52)}" cy="${n(cy - s * 0.6)}" r="${n(s * 0.1)}" fill="${e.belly}"/>` +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.1)}" rx="${n(s * 0.72)}" ry="${n(s * 0.78)}" fill="${e.body}" ${ol}/>` +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.42)}" rx="${n(s * 0.42)}" ry="${n(s * 0.36)}" fill="${e.belly}"/>` +
        `<ellipse cx="${n(cx - s * 0.72)}" cy="${n(cy + s * 0.25)}" rx="${n(s * 0.12)}" ry="${n(s * 0.2)}" fill="${e.body}" ${ol} transform="rotate(25 ${n(cx - s * 0.72)} ${n(cy + s * 0.25)})"/>` +
        `<ellipse cx="${n(cx + s * 0.72)}" cy="${n(cy + s * 0.25)}" rx="${n(s * 0.12)}" ry="${n(s * 0.2)}" fill="${e.body}" ${ol} transform="rotate(-25 ${n(cx + s * 0.72)} ${n(cy + s * 0.25)})"/>` +
        `<ellipse cx="${n(cx - s * 0.3)}" cy="${n(cy + s * 0.86)}" rx="${n(s * 0.22)}" ry="${n(s * 0.1)}" fill="${e.body}" ${ol}/>` +
        `<ellipse cx="${n(cx + s * 0.3)}" cy="${n(cy + s * 0.86)}" rx="${n(s * 0.22)}" ry="${n(s * 0.1)}" fill="${e.body}" ${ol}/>` +
        `<path d="M${n(cx - s * 0.5)} ${n(cy - s * 0.36)}Q${n(cx)} ${n(cy - s * 0.52)} ${n(cx + s * 0.5)} ${n(cy - s * 0.36)}" fill="none" stroke="${e.dark}" stroke-width="4" stroke-linecap="round" opacity=".35"/>` +
        eye(cx - s * 0.24, cy - s * 0.12, s * 0.15, e.dark) +
        eye(cx + s * 0.24, cy - s * 0.12, s * 0.15, e.dark) +
        `<path d="M${n(cx - s * 0.1)} ${n(cy + s * 0.1)}q${n(s * 0.1)} ${n(s * 0.1)} ${n(s * 0.2)} 0" fill="none" stroke="${e.dark}" stroke-width="4" stroke-linecap="round"/>`
      );
    case 'bird': {
      const wing = (dir: number) =>
        [0, 1, 2]
          .map(
            (i) =>
              `<ellipse cx="${n(cx + dir * s * (0.55 + i * 0.12))}" cy="${n(cy - s * (0.05 - i * 0.12))}" rx="${n(s * 0.5)}" ry="${n(s * 0.16)}" fill="${i === 1 ? e.accent : e.body}" ${ol} transform="rotate(${dir * (-35 + i * 22)} ${n(cx + dir * s * 0.4)} ${n(cy)})"/>`,
          )
          .join('');
      return (
        wing(-1) +
        wing(1) +
        [-1, 0, 1]
          .map(
            (i) =>
              `<polygon points="${pts([
                [cx + i * s * 0.12, cy + s * 0.6],
                [cx + i * s * 0.35, cy + s * 1.05],
                [cx + i * s * 0.12 + s * 0.12, cy + s * 0.95],
              ])}" fill="${i === 0 ? e.accent : e.body}" ${ol}/>`,
          )
          .join('') +
        [-1, 0, 1]
          .map(
            (i) =>
              `<polygon points="${pts([
                [cx + i * s * 0.1 - s * 0.06, cy - s * 0.7],
                [cx + i * s * 0.3, cy - s * (1.15 - Math.abs(i) * 0.12)],
                [cx + i * s * 0.1 + s * 0.08, cy - s * 0.68],
              ])}" fill="${e.accent}" ${ol}/>`,
          )
          .join('') +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.1)}" rx="${n(s * 0.5)}" ry="${n(s * 0.62)}" fill="${e.body}" ${ol}/>` +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.3)}" rx="${n(s * 0.3)}" ry="${n(s * 0.36)}" fill="${e.belly}"/>` +
        `<circle cx="${n(cx)}" cy="${n(cy - s * 0.38)}" r="${n(s * 0.38)}" fill="${e.body}" ${ol}/>` +
        eye(cx - s * 0.15, cy - s * 0.42, s * 0.1, e.dark) +
        eye(cx + s * 0.15, cy - s * 0.42, s * 0.1, e.dark) +
        `<polygon points="${pts([
          [cx - s * 0.1, cy - s * 0.26],
          [cx + s * 0.1, cy - s * 0.26],
          [cx, cy - s * 0.1],
        ])}" fill="${e.accent === '#ffffff' ? '#ffb020' : e.accent}" ${ol}/>`
      );
    }
    case 'drake': {
      const wing = (dir: number) =>
        `<polygon points="${pts([
          [cx + dir * s * 0.25, cy - s * 0.1],
          [cx + dir * s * 1.15, cy - s * 0.85],
          [cx + dir * s * 1.1, cy - s * 0.1],
          [cx + dir * s * 0.85, cy - s * 0.25],
          [cx + dir * s * 0.75, cy + s * 0.12],
          [cx + dir * s * 0.5, cy - s * 0.02],
        ])}" fill="${e.accent}" ${ol}/>` +
        `<polyline points="${pts([
          [cx + dir * s * 1.12, cy - s * 0.8],
          [cx + dir * s * 0.85, cy - s * 0.25],
        ])}" fill="none" stroke="${e.dark}" stroke-width="4"/>`;
      return (
        wing(-1) +
        wing(1) +
        `<path d="M${n(cx + s * 0.3)} ${n(cy + s * 0.55)}Q${n(cx + s * 0.95)} ${n(cy + s * 0.9)} ${n(cx + s * 0.9)} ${n(cy + s * 0.35)}" fill="none" stroke="${e.dark}" stroke-width="${n(s * 0.22)}" stroke-linecap="round"/>` +
        `<path d="M${n(cx + s * 0.3)} ${n(cy + s * 0.55)}Q${n(cx + s * 0.95)} ${n(cy + s * 0.9)} ${n(cx + s * 0.9)} ${n(cy + s * 0.35)}" fill="none" stroke="${e.body}" stroke-width="${n(s * 0.14)}" stroke-linecap="round"/>` +
        `<polygon points="${pts([
          [cx + s * 0.9, cy + s * 0.12],
          [cx + s * 1.05, cy + s * 0.38],
          [cx + s * 0.9, cy + s * 0.48],
          [cx + s * 0.76, cy + s * 0.38],
        ])}" fill="${e.accent}" ${ol}/>` +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.38)}" rx="${n(s * 0.48)}" ry="${n(s * 0.52)}" fill="${e.body}" ${ol}/>` +
        [0, 1, 2]
          .map(
            (i) =>
              `<rect x="${n(cx - s * (0.22 - i * 0.02))}" y="${n(cy + s * (0.18 + i * 0.16))}" width="${n(s * (0.44 - i * 0.04))}" height="${n(s * 0.12)}" rx="${n(s * 0.06)}" fill="${e.belly}"/>`,
          )
          .join('') +
        `<polygon points="${pts([
          [cx - s * 0.3, cy - s * 0.5],
          [cx - s * 0.5, cy - s * 1.0],
          [cx - s * 0.12, cy - s * 0.62],
        ])}" fill="${e.belly}" ${ol}/>` +
        `<polygon points="${pts([
          [cx + s * 0.3, cy - s * 0.5],
          [cx + s * 0.5, cy - s * 1.0],
          [cx + s * 0.12, cy - s * 0.62],
        ])}" fill="${e.belly}" ${ol}/>` +
        `<rect x="${n(cx - s * 0.45)}" y="${n(cy - s * 0.72)}" width="${n(s * 0.9)}" height="${n(s * 0.7)}" rx="${n(s * 0.3)}" fill="${e.body}" ${ol}/>` +
        `<ellipse cx="${n(cx)}" cy="${n(cy - s * 0.14)}" rx="${n(s * 0.28)}" ry="${n(s * 0.14)}" fill="${e.belly}" ${ol}/>` +
        `<circle cx="${n(cx - s * 0.08)}" cy="${n(cy - s * 0.16)}" r="${n(s * 0.03)}" fill="${e.dark}"/><circle cx="${n(cx + s * 0.08)}" cy="${n(cy - s * 0.16)}" r="${n(s * 0.03)}" fill="${e.dark}"/>` +
        eye(cx - s * 0.2, cy - s * 0.42, s * 0.11, e.dark) +
        eye(cx + s * 0.2, cy - s * 0.42, s * 0.11, e.dark)
      );
    }
    case 'golem': {
      const hex = polyPoints(cx, cy, s * 0.75, 6, -90);
      let facets = '';
      for (let i = 0; i < 6; i++) {
        facets += `<polygon points="${pts([[cx, cy], hex[i], hex[(i + 1) % 6]])}" fill="${i % 2 === 0 ? e.body : e.belly}" opacity="${i < 3 ? 1 : 0.85}"/>`;
      }
      const shard = (x: number, y: number, h: number, rot: number) =>
        `<polygon points="${pts([
          [x, y - h],
          [x + h * 0.3, y],
          [x, y + h * 0.35],
          [x - h * 0.3, y],
        ])}" fill="${e.accent}" ${ol} transform="rotate(${rot} ${n(x)} ${n(y)})"/>`;
      return (
        shard(cx - s * 1.0, cy - s * 0.3, s * 0.45, -25) +
        shard(cx + s * 1.0, cy - s * 0.35, s * 0.5, 20) +
        shard(cx - s * 0.75, cy + s * 0.75, s * 0.3, -40) +
        shard(cx + s * 0.8, cy + s * 0.7, s * 0.32, 35) +
        `<polygon points="${pts(polyPoints(cx - s * 0.82, cy + s * 0.2, s * 0.22, 6))}" fill="${e.body}" ${ol}/>` +
        `<polygon points="${pts(polyPoints(cx + s * 0.82, cy + s * 0.2, s * 0.22, 6))}" fill="${e.body}" ${ol}/>` +
        facets +
        `<polygon points="${pts(hex)}" fill="none" ${ol}/>` +
        `<polygon points="${pts(polyPoints(cx, cy - s * 0.05, s * 0.32, 6, -90))}" fill="${e.dark}" opacity=".85"/>` +
        `<rect x="${n(cx - s * 0.2)}" y="${n(cy - s * 0.12)}" width="${n(s * 0.14)}" height="${n(s * 0.07)}" rx="${n(s * 0.035)}" fill="${e.accent}"/>` +
        `<rect x="${n(cx + s * 0.06)}" y="${n(cy - s * 0.12)}" width="${n(s * 0.14)}" height="${n(s * 0.07)}" rx="${n(s * 0.035)}" fill="${e.accent}"/>` +
        sparkle(cx, cy + s * 0.12, s * 0.08, e.accent)
      );
    }
    case 'crest': {
      const wing = (dir: number) =>
        [0, 1, 2, 3]
          .map(
            (i) =>
              `<ellipse cx="${n(cx + dir * s * (0.62 + i * 0.05))}" cy="${n(cy - s * 0.05 + i * s * 0.16)}" rx="${n(s * (0.55 - i * 0.09))}" ry="${n(s * 0.11)}" fill="${i % 2 === 0 ? e.belly : e.accent}" ${ol} transform="rotate(${dir * (-28 + i * 14)} ${n(cx + dir * s * 0.3)} ${n(cy)})"/>`,
          )
          .join('');
      const shield = `M${n(cx)} ${n(cy - s * 0.7)}L${n(cx + s * 0.5)} ${n(cy - s * 0.5)}L${n(cx + s * 0.48)} ${n(cy + s * 0.15)}Q${n(cx + s * 0.4)} ${n(cy + s * 0.6)} ${n(cx)} ${n(cy + s * 0.85)}Q${n(cx - s * 0.4)} ${n(cy + s * 0.6)} ${n(cx - s * 0.48)} ${n(cy + s * 0.15)}L${n(cx - s * 0.5)} ${n(cy - s * 0.5)}Z`;
      return (
        wing(-1) +
        wing(1) +
        `<polygon points="${pts([
          [cx - s * 0.32, cy - s * 0.72],
          [cx - s * 0.36, cy - s * 1.05],
          [cx - s * 0.16, cy - s * 0.88],
          [cx, cy - s * 1.15],
          [cx + s * 0.16, cy - s * 0.88],
          [cx + s * 0.36, cy - s * 1.05],
          [cx + s * 0.32, cy - s * 0.72],
        ])}" fill="${e.accent}" ${ol}/>` +
        `<path d="${shield}" fill="${e.body}" ${ol}/>` +
        `<path d="${shield}" fill="none" stroke="${e.belly}" stroke-width="${n(s * 0.06)}" transform="translate(${n(cx * 0.15)} ${n(cy * 0.15)}) scale(.85)"/>` +
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(s * 0.28)}" fill="${e.dark}" opacity=".35"/>` +
        `<polygon points="${pts(starPoints(cx, cy, s * 0.3, s * 0.13, 5))}" fill="${e.accent}" ${ol}/>`
      );
    }
    case 'fox': {
      const tails = [-2, -1, 0, 1, 2]
        .map((i) => {
          const a = (i * 22 * Math.PI) / 180;
          const tx = cx + Math.sin(a) * s * 1.05;
          const ty = cy + s * 0.35 - Math.cos(a) * s * 1.0;
          return `<path d="M${n(cx)} ${n(cy + s * 0.5)}Q${n(tx - s * 0.35)} ${n((ty + cy) / 2)} ${n(tx)} ${n(ty)}Q${n(tx + s * 0.35)} ${n((ty + cy) / 2 + s * 0.2)} ${n(cx)} ${n(cy + s * 0.5)}Z" fill="${i % 2 === 0 ? e.body : e.accent}" ${ol}/>`;
        })
        .join('');
      return (
        tails +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.55)}" rx="${n(s * 0.36)}" ry="${n(s * 0.36)}" fill="${e.body}" ${ol}/>` +
        `<ellipse cx="${n(cx)}" cy="${n(cy + s * 0.6)}" rx="${n(s * 0.2)}" ry="${n(s * 0.24)}" fill="${e.belly}"/>` +
        `<polygon points="${pts([
          [cx - s * 0.48, cy - s * 0.1],
          [cx - s * 0.42, cy - s * 0.72],
          [cx - s * 0.08, cy - s * 0.3],
        ])}" fill="${e.body}" ${ol}/>` +
        `<polygon points="${pts([
          [cx + s * 0.48, cy - s * 0.1],
          [cx + s * 0.42, cy - s * 0.72],
          [cx + s * 0.08, cy - s * 0.3],
        ])}" fill="${e.body}" ${ol}/>` +
        `<polygon points="${pts([
          [cx - s * 0.4, cy - s * 0.22],
          [cx - s * 0.38, cy - s * 0.55],
          [cx - s * 0.18, cy - s * 0.3],
        ])}" fill="${e.belly}"/>` +
        `<polygon points="${pts([
          [cx + s * 0.4, cy - s * 0.22],
          [cx + s * 0.38, cy - s * 0.55],
          [cx + s * 0.18, cy - s * 0.3],
        ])}" fill="${e.belly}"/>` +
        `<path d="M${n(cx - s * 0.55)} ${n(cy - s * 0.2)}Q${n(cx)} ${n(cy - s * 0.5)} ${n(cx + s * 0.55)} ${n(cy - s * 0.2)}L${n(cx)} ${n(cy + s * 0.32)}Z" fill="${e.body}" ${ol}/>` +
        `<path d="M${n(cx - s * 0.3)} ${n(cy - s * 0.02)}L${n(cx)} ${n(cy + s * 0.32)}L${n(cx + s * 0.3)} ${n(cy - s * 0.02)}Q${n(cx)} ${n(cy + s * 0.08)} ${n(cx - s * 0.3)} ${n(cy - s * 0.02)}Z" fill="${e.belly}"/>` +
        `<polygon points="${pts([
          [cx, cy - s * 0.33],
          [cx + s * 0.06, cy - s * 0.22],
          [cx, cy - s * 0.12],
          [cx - s * 0.06, cy - s * 0.22],
        ])}" fill="${e.accent === '#ffffff' ? '#ff7ab8' : e.accent}"/>` +
        `<path d="M${n(cx - s * 0.3)} ${n(cy - s * 0.12)}q${n(s * 0.1)} ${n(-s * 0.1)} ${n(s * 0.2)} ${n(s * 0.02)}" fill="none" stroke="${e.dark}" stroke-width="6" stroke-linecap="round"/>` +
        `<path d="M${n(cx + s * 0.1)} ${n(cy - s * 0.1)}q${n(s * 0.1)} ${n(-s * 0.12)} ${n(s * 0.2)} ${n(-s * 0.02)}" fill="none" stroke="${e.dark}" stroke-width="6" stroke-linecap="round"/>` +
        `<circle cx="${n(cx)}" cy="${n(cy + s * 0.27)}" r="${n(s * 0.05)}" fill="${e.dark}"/>`
      );
    }
  }
}

/** Background motif of the art window, one per element. */
function backdrop(elementIndex: number, x: number, y: number, w: number, h: number, e: Element, rng: Rng): string {
  const cx = x + w / 2;
  const cy = y + h / 2;
  switch (elementIndex) {
    case 0: {
      let d = '';
      for (let i = 0; i < 9; i++) {
        const fx = x + (i + 0.5) * (w / 9);
        const fh = between(rng, 60, 140);
        d += `M${n(fx - 32)} ${n(y + h)}Q${n(fx - 10)} ${n(y + h - fh * 0.6)} ${n(fx)} ${n(y + h - fh)}Q${n(fx + 10)} ${n(y + h - fh * 0.6)} ${n(fx + 32)} ${n(y + h)}Z`;
      }
      return rays(cx, cy, w, 18, '#fff', 0.18) + `<path d="${d}" fill="${e.accent}" opacity=".55"/>`;
    }
    case 1: {
      let bubbles = '';
      for (let i = 0; i < 10; i++)
        bubbles += `<circle cx="${n(between(rng, x + 20, x + w - 20))}" cy="${n(between(rng, y + 20, y + h - 40))}" r="${n(between(rng, 6, 20))}" fill="none" stroke="#fff" stroke-width="3" opacity=".6"/>`;
      return (
        bubbles +
        `<path d="M${x} ${n(y + h - 90)}q${n(w / 8)} -30 ${n(w / 4)} 0t${n(w / 4)} 0t${n(w / 4)} 0t${n(w / 4)} 0V${y + h}H${x}Z" fill="#fff" opacity=".3"/>` +
        `<path d="M${x} ${n(y + h - 50)}q${n(w / 8)} -26 ${n(w / 4)} 0t${n(w / 4)} 0t${n(w / 4)} 0t${n(w / 4)} 0V${y + h}H${x}Z" fill="${e.body}" opacity=".5"/>`
      );
    }
    case 2: {
      let leaves = '';
      for (let i = 0; i < 9; i++) {
        const lx = between(rng, x + 20, x + w - 20);
        const ly = between(rng, y + 20, y + h - 20);
        leaves += `<ellipse cx="${n(lx)}" cy="${n(ly)}" rx="26" ry="10" fill="${e.body}" opacity=".45" transform="rotate(${Math.round(between(rng, 0, 180))} ${n(lx)} ${n(ly)})"/>`;
      }
      return rays(cx, y - 40, h * 1.6, 14, '#fff', 0.2, 90) + leaves;
    }
    case 3: {
      const bolt = (bx: number, by: number, k: number) =>
        `<polygon points="${pts([
          [bx, by],
          [bx + 26 * k, by],
          [bx + 10 * k, by + 40 * k],
          [bx + 30 * k, by + 40 * k],
          [bx - 8 * k, by + 100 * k],
          [bx + 2 * k, by + 55 * k],
          [bx - 16 * k, by + 55 * k],
        ])}" fill="#fff" opacity=".6"/>`;
      return (
        rays(cx, cy, w, 24, '#fff', 0.22) +
        bolt(x + 40, y + 30, 1) +
        bolt(x + w - 80, y + 50, 0.8) +
        bolt(x + w - 150, y + h - 140, 0.6)
      );
    }
    case 4:
      return (
        [0.9, 0.7, 0.5, 0.3]
          .map(
            (k, i) =>
              `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(h * k * 0.6)}" fill="none" stroke="#fff" stroke-width="${6 - i}" opacity="${0.2 + i * 0.08}"/>`,
          )
          .join('') + sparkles(rng, 6, w, h, ['#fff'], 6, 14, x, y)
      );
    case 5:
      return (
        emblem('moon', x + w - 90, y + 80, 46, '#fff3c4', '#fff3c4') +
        sparkles(rng, 14, w, h, ['#fff', e.accent], 3, 9, x, y)
      );
    case 6:
      return hexCorners(x, y, w, h, 34, 260, '#fff', 0.7) + rays(cx, cy, w, 12, '#fff', 0.2);
    default:
      return rays(cx, cy, w, 30, e.accent, 0.18) + sparkles(rng, 16, w, h, ['#fff', e.belly, e.accent], 3, 11, x, y);
  }
}

function cardArt(card: DemoCard): string {
  const index = card.number - 1;
  const W = 630;
  const H = 880;
  const elementIndex = index % ELEMENTS.length;
  const e = ELEMENTS[elementIndex];
  const rarity = STYLE_OF[card.rarity];
  const kind = CREATURES[(index + Math.floor(index / ELEMENTS.length) * 2) % CREATURES.length];
  const rng = mulberry32(seedOf(`card-${index}`));
  const frame = rarity === 'UR' ? GOLD : e.frame;
  const foil = rarity === 'SR' || rarity === 'UR';
  const art = { x: 46, y: 112, w: 538, h: 404 };

  const defs =
    linear('fr', [
      [0, frame[0]],
      [0.45, frame[1]],
      [0.55, frame[1]],
      [1, frame[0]],
    ]) +
    linear(
      'sky',
      [
        [0, e.sky[0]],
        [1, e.sky[1]],
      ],
      0,
      0,
      0,
      1,
    ) +
    radial('glow', [
      [0, '#fff', 0.85],
      [1, '#fff', 0],
    ]) +
    linear(
      'panel',
      [
        [0, '#fff', 0.92],
        [1, e.frame[0], 0.9],
      ],
      0,
      0,
      0,
      1,
    ) +
    (foil
      ? linear('foil', FOIL_STOPS, 0, 0, 0.45, 0.3, 'repeat') +
        linear('shine', [
          [0, '#fff', 0],
          [0.45, '#fff', 0],
          [0.5, '#fff', 0.55],
          [0.55, '#fff', 0],
          [1, '#fff', 0],
        ])
      : '') +
    `<clipPath id="win"><rect x="${art.x}" y="${art.y}" width="${art.w}" height="${art.h}" rx="10"/></clipPath>`;

  const stars = { C: 1, R: 2, SR: 3, UR: 4 }[rarity];
  let rarityMarks = '';
  for (let i = 0; i < stars; i++) {
    const sx = W / 2 + (i - (stars - 1) / 2) * 30;
    rarityMarks += `<polygon points="${pts(starPoints(sx, 826, 12, 5.5, 5))}" fill="${rarity === 'UR' ? '#ffd84f' : '#fff'}" stroke="${e.dark}" stroke-width="2" stroke-linejoin="round"/>`;
  }

  let rows = '';
  for (let i = 0; i < 3; i++) {
    const ry = 566 + i * 66;
    const len = [0.62, 0.74, 0.5][(i + index) % 3];
    rows +=
      `<circle cx="84" cy="${ry + 14}" r="17" fill="${e.body}" stroke="${e.dark}" stroke-width="3"/>` +
      `<rect x="114" y="${ry + 2}" width="${n(330 * len)}" height="11" rx="5.5" fill="${e.dark}" opacity=".55"/>` +
      `<rect x="114" y="${ry + 20}" width="${n(380 * len)}" height="7" rx="3.5" fill="${e.dark}" opacity=".25"/>` +
      `<rect x="494" y="${ry}" width="64" height="28" rx="14" fill="${e.dark}" opacity=".8"/>`;
  }

  const body =
    `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="30" fill="url(#fr)" stroke="${e.dark}" stroke-width="4"/>` +
    `<rect x="24" y="24" width="${W - 48}" height="${H - 48}" rx="18" fill="${e.frame[1]}" opacity=".55"/>` +
    `<rect x="46" y="42" width="538" height="56" rx="28" fill="url(#panel)" stroke="${e.dark}" stroke-width="3"/>` +
    `<rect x="74" y="62" width="230" height="16" rx="8" fill="${e.dark}" opacity=".7"/>` +
    `<rect x="414" y="64" width="80" height="12" rx="6" fill="${e.dark}" opacity=".35"/>` +
    `<circle cx="548" cy="70" r="20" fill="${e.body}" stroke="${e.dark}" stroke-width="3"/>` +
    emblem((['star', 'diamond', 'hex', 'ring', 'moon'] as const)[elementIndex % 5], 548, 70, 11, e.belly, e.dark) +
    `<g clip-path="url(#win)">` +
    `<rect x="${art.x}" y="${art.y}" width="${art.w}" height="${art.h}" fill="url(#sky)"/>` +
    backdrop(elementIndex, art.x, art.y, art.w, art.h, e, rng) +
    `<circle cx="315" cy="300" r="190" fill="url(#glow)"/>` +
    `<ellipse cx="315" cy="478" rx="150" ry="22" fill="${e.dark}" opacity=".25"/>` +
    creature(kind, 315, 318, 140, e) +
    (foil
      ? `<rect x="${art.x}" y="${art.y}" width="${art.w}" height="${art.h}" fill="url(#foil)" opacity="${rarity === 'UR' ? 0.3 : 0.22}"/><rect x="${art.x}" y="${art.y}" width="${art.w}" height="${art.h}" fill="url(#shine)"/>`
      : '') +
    `</g>` +
    `<rect x="${art.x}" y="${art.y}" width="${art.w}" height="${art.h}" rx="10" fill="none" stroke="${e.dark}" stroke-width="4"/>` +
    `<rect x="46" y="536" width="538" height="240" rx="14" fill="url(#panel)" stroke="${e.dark}" stroke-width="3"/>` +
    rows +
    `<polygon points="${pts(polyPoints(74, 826, 12, 6))}" fill="${e.dark}" opacity=".6"/>` +
    `<rect x="470" y="820" width="86" height="10" rx="5" fill="${e.dark}" opacity=".4"/>` +
    rarityMarks +
    (rarity === 'UR'
      ? `<rect x="24" y="24" width="${W - 48}" height="${H - 48}" rx="18" fill="none" stroke="url(#foil)" stroke-width="10" opacity=".7"/>` +
        sparkles(rng, 6, W, H, ['#fff'], 8, 18)
      : '') +
    (foil ? sparkle(548, 150, 22, '#fff') + sparkle(88, 480, 14, '#fff') : '');
  return svg(W, H, defs, body);
}

// ---------- banners ----------

function bannerArt(index: number): string {
  const W = 1200;
  const H = 500;
  const s = PACK_SCHEMES[[0, 9, 6, 5][index]];
  const rng = mulberry32(seedOf(`banner-${index}`));
  const defs =
    linear(
      'bg',
      [
        [0, s.bg[0]],
        [0.6, s.bg[1]],
        [1, s.bg[2]],
      ],
      0,
      0,
      1,
      0.4,
    ) +
    radial('glow', [
      [0, s.light, 0.85],
      [0.3, s.accent, 0.45],
      [1, s.accent, 0],
    ]) +
    linear('mcF', [
      [0, s.light],
      [0.5, s.accent],
      [1, s.bg[1]],
    ]) +
    linear(
      'mcA',
      [
        [0, s.bg[2]],
        [1, s.bg[0]],
      ],
      0,
      0,
      0,
      1,
    ) +
    linear('foil', FOIL_STOPS) +
    linear(
      'fade',
      [
        [0, s.bg[0], 0.75],
        [0.5, s.bg[0], 0.2],
        [1, s.bg[0], 0],
      ],
      0,
      0,
      1,
      0,
    ) +
    linear('gem', [
      [0, s.light],
      [0.5, s.accent],
      [1, s.accent2],
    ]) +
    (index === 3
      ? linear(
          'gold',
          [
            [0, '#fff4c2'],
            [0.5, '#f0b429'],
            [1, '#a8650a'],
          ],
          0,
          0,
          1,
          0.3,
        )
      : '');
  const fx = 880;
  const fy = 250;
  let hero = '';
  if (index === 0) hero = fan(fx, 100, 165, 231, 5, 80, ['star', 'hex', 'diamond'], s.accent2);
  if (index === 1) {
    // crystal cluster
    const gems: Array<[number, number, number, number]> = [
      [fx, 250, 120, 0],
      [fx - 120, 300, 80, -18],
      [fx + 120, 300, 90, 16],
      [fx - 60, 330, 60, -8],
      [fx + 60, 340, 55, 10],
    ];
    for (const [gx, gy, gh, rot] of gems) {
      hero +=
        `<g transform="rotate(${rot} ${gx} ${gy + gh})">` +
        `<polygon points="${pts([
          [gx, gy - gh],
          [gx + gh * 0.42, gy - gh * 0.45],
          [gx + gh * 0.42, gy + gh * 0.6],
          [gx, gy + gh],
          [gx - gh * 0.42, gy + gh * 0.6],
          [gx - gh * 0.42, gy - gh * 0.45],
        ])}" fill="url(#gem)" stroke="${s.light}" stroke-width="3"/>` +
        `<polygon points="${pts([
          [gx, gy - gh],
          [gx + gh * 0.42, gy - gh * 0.45],
          [gx + gh * 0.42, gy + gh * 0.6],
          [gx, gy + gh],
        ])}" fill="${s.bg[0]}" opacity=".25"/>` +
        `<polygon points="${pts([
          [gx, gy - gh],
          [gx - gh * 0.2, gy - gh * 0.4],
          [gx - gh * 0.2, gy + gh * 0.5],
          [gx, gy + gh * 0.75],
        ])}" fill="#fff" opacity=".35"/></g>`;
    }
  }
  if (index === 2) {
    hero =
      `<polygon points="${pts(starPoints(fx, fy, 190, 150, 24))}" fill="${s.accent}" opacity=".9"/>` +
      `<circle cx="${fx}" cy="${fy}" r="140" fill="${s.bg[1]}" stroke="${s.accent2}" stroke-width="8"/>` +
      `<circle cx="${fx}" cy="${fy}" r="112" fill="none" stroke="${s.accent}" stroke-width="3" stroke-dasharray="2 12" stroke-linecap="round"/>` +
      `<polygon points="${pts(starPoints(fx, fy, 88, 36, 5))}" fill="url(#gem)" stroke="${s.light}" stroke-width="4" stroke-linejoin="round"/>`;
  }
  if (index === 3) {
    hero =
      `<path d="M${fx - 95} 150H${fx + 95}V210Q${fx + 95} 330 ${fx} 340Q${fx - 95} 330 ${fx - 95} 210Z" fill="url(#gold)" stroke="#7a3e00" stroke-width="5"/>` +
      `<path d="M${fx - 95} 175Q${fx - 160} 180 ${fx - 150} 230Q${fx - 140} 275 ${fx - 85} 270" fill="none" stroke="#f0b429" stroke-width="14" stroke-linecap="round"/>` +
      `<path d="M${fx + 95} 175Q${fx + 160} 180 ${fx + 150} 230Q${fx + 140} 275 ${fx + 85} 270" fill="none" stroke="#f0b429" stroke-width="14" stroke-linecap="round"/>` +
      `<rect x="${fx - 22}" y="338" width="44" height="50" fill="#c98512" stroke="#7a3e00" stroke-width="4"/>` +
      `<rect x="${fx - 80}" y="384" width="160" height="36" rx="10" fill="${s.bg[0]}" stroke="#f0b429" stroke-width="4"/>` +
      `<polygon points="${pts(starPoints(fx, 235, 50, 21, 5))}" fill="#fff" stroke="#a8650a" stroke-width="3" stroke-linejoin="round"/>`;
  }
  const body =
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
    rays(fx, fy, 900, 24, s.light, 0.08, between(rng, 0, 10)) +
    `<circle cx="${fx}" cy="${fy}" r="330" fill="url(#glow)"/>` +
    `<circle cx="150" cy="420" r="260" fill="${s.accent}" opacity=".08"/><circle cx="420" cy="-40" r="200" fill="${s.light}" opacity=".06"/>` +
    `<path d="M0 0H520L380 500H0Z" fill="url(#fade)"/>` +
    `<path d="M560 0H600L460 500H420Z" fill="${s.light}" opacity=".08"/><path d="M620 0H636L496 500H480Z" fill="${s.light}" opacity=".08"/>` +
    hero +
    confetti(rng, 20, W, H, [s.accent, s.accent2, s.light], { cx: fx, cy: fy, r: 230 }) +
    sparkles(rng, 10, W, H, [s.light, '#fff'], 8, 24) +
    sparkle(fx + 160, 90, 34, '#fff') +
    `<path d="M0 470Q300 440 600 468T1200 460V500H0Z" fill="${s.accent}" opacity=".5"/>`;
  return svg(W, H, defs, body);
}

// ---------- genre icons ----------

const GENRES = ['pokemon', 'onepiece', 'yugioh', 'duelmasters', 'weiss', 'all'] as const;

/** Abstract 96×96 genre marks: deliberately unlike any franchise's logo or symbol. */
function genreIcon(id: (typeof GENRES)[number]): string {
  const bgs: Record<(typeof GENRES)[number], readonly [string, string]> = {
    pokemon: ['#ffcf3f', '#ff6a2b'],
    onepiece: ['#3ec6ff', '#0b3d91'],
    yugioh: ['#b36bff', '#3a0f7a'],
    duelmasters: ['#ff5a5a', '#8c1020'],
    weiss: ['#f4f4f8', '#9aa0b0'],
    all: ['#4f5b7a', '#1b2238'],
  };
  const [a, b] = bgs[id];
  const defs = linear('bg', [
    [0, a],
    [1, b],
  ]);
  const base = `<rect width="96" height="96" rx="22" fill="url(#bg)"/><rect x="3" y="3" width="90" height="45" rx="19" fill="#fff" opacity=".14"/>`;
  let mark = '';
  switch (id) {
    case 'pokemon': // ring with a spark bolt
      mark =
        `<circle cx="48" cy="48" r="28" fill="none" stroke="#fff" stroke-width="7"/>` +
        `<polygon points="52,22 36,52 47,52 42,74 61,42 50,42 56,22" fill="#fff" stroke="#c2410c" stroke-width="2" stroke-linejoin="round"/>`;
      break;
    case 'onepiece': // waves under an abstract anchor-like mast and compass star
      mark =
        `<path d="M48 20V58M38 30H58M30 50Q32 66 48 66Q64 66 66 50" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/>` +
        `<circle cx="48" cy="18" r="5" fill="none" stroke="#fff" stroke-width="4"/>` +
        `<path d="M10 78q9-8 19 0t19 0t19 0t19 0" fill="none" stroke="#bff0ff" stroke-width="5" stroke-linecap="round"/>`;
      break;
    case 'yugioh': // octagram "magic circle" of two squares in a ring
      mark =
        `<circle cx="48" cy="48" r="32" fill="none" stroke="#f3e3ff" stroke-width="3"/>` +
        `<rect x="29" y="29" width="38" height="38" fill="none" stroke="#fff" stroke-width="4"/>` +
        `<rect x="29" y="29" width="38" height="38" fill="none" stroke="#fff" stroke-width="4" transform="rotate(45 48 48)"/>` +
        `<circle cx="48" cy="48" r="8" fill="#ffd84f"/>`;
      break;
    case 'duelmasters': // shield with a flame
      mark =
        `<path d="M48 16L74 26V48Q74 70 48 82Q22 70 22 48V26Z" fill="#fff" opacity=".95"/>` +
        `<path d="M48 34Q58 46 56 56Q55 66 48 68Q41 66 40 56Q39 48 46 42Q46 50 50 52Q52 44 48 34Z" fill="#e0312f"/>`;
      break;
    case 'weiss': // split diamond, light and dark, with a sparkle
      mark =
        `<polygon points="48,14 78,48 48,82 18,48" fill="#fff" stroke="#3b3f52" stroke-width="3"/>` +
        `<polygon points="48,14 78,48 48,82" fill="#2b2f40"/>` +
        sparkle(48, 48, 13, '#ffd84f');
      break;
    case 'all': // four tiles: every genre
      mark =
        `<rect x="20" y="20" width="25" height="25" rx="7" fill="#ffcf3f"/><rect x="51" y="20" width="25" height="25" rx="7" fill="#3ec6ff"/>` +
        `<rect x="20" y="51" width="25" height="25" rx="7" fill="#b36bff"/><rect x="51" y="51" width="25" height="25" rx="7" fill="#ff5a5a"/>`;
      break;
  }
  return svg(96, 96, defs, base + mark);
}

// ---------- output ----------

const pad = (i: number): string => String(i).padStart(2, '0');

/**
 * Every demo art file as [relative path, SVG text]; pure, so tests can check it without writing.
 * @example demoArtFiles().find(([p]) => p === 'packs/pack-01.svg')
 */
export function demoArtFiles(): Array<[string, string]> {
  const files: Array<[string, string]> = [];
  for (let i = 0; i < 12; i++) files.push([`packs/pack-${pad(i + 1)}.svg`, packArt(i)]);
  for (const card of DEMO_CARDS) files.push([`cards/card-${pad(card.number)}.svg`, cardArt(card)]);
  for (let i = 0; i < 4; i++) files.push([`banners/banner-${pad(i + 1)}.svg`, bannerArt(i)]);
  for (const id of GENRES) files.push([`genres/${id}.svg`, genreIcon(id)]);
  return files;
}

function main(): void {
  const outDir = path.resolve(import.meta.dirname, '..', 'public', 'demo');
  let total = 0;
  for (const [relative, content] of demoArtFiles()) {
    const target = path.join(outDir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    const size = Buffer.byteLength(content);
    total += size;
    if (size > 12 * 1024) console.warn(`warning: ${relative} is ${size} bytes (over 12 KB)`);
  }
  console.log(
    `wrote ${demoArtFiles().length} files (${Math.round(total / 1024)} KB) to ${path.relative(process.cwd(), outDir) || outDir}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
