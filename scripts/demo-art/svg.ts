// The demo art's seeded randomness and tiny SVG helpers (numbers rounded to keep files small).

export type Rng = () => number;
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
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

// ---------- tiny SVG helpers (numbers rounded to keep files small: 1 px when ≥ 100, else 0.1 px) ----------

export const n = (v: number): string => String(Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 10) / 10);
export const pts = (points: readonly Pt[]): string => points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
export const between = (rng: Rng, a: number, b: number): number => a + (b - a) * rng();
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

export type Stop = readonly [offset: number, color: string, opacity?: number];

function stopsXml(stops: readonly Stop[]): string {
  return stops
    .map(([o, c, op]) => `<stop offset="${o}" stop-color="${c}"${op === undefined ? '' : ` stop-opacity="${op}"`}/>`)
    .join('');
}

export function linear(
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

export function radial(id: string, stops: readonly Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopsXml(stops)}</radialGradient>`;
}

export function svg(width: number, height: number, defs: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs}</defs>${body}</svg>\n`
  );
}

export function starPoints(cx: number, cy: number, outer: number, inner: number, count: number, rotation = -90): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i < count * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = ((rotation + (i * 180) / count) * Math.PI) / 180;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

export function polyPoints(cx: number, cy: number, r: number, sides: number, rotation = -90): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i < sides; i++) {
    const a = ((rotation + (i * 360) / sides) * Math.PI) / 180;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** Four-pointed twinkle with concave sides: the "kira" sparkle of card shops. */
export function sparkle(cx: number, cy: number, r: number, fill: string, opacity = 1): string {
  const k = n(r * 0.18);
  const j = n(r - r * 0.18);
  const R = n(r);
  return (
    `<path d="M${n(cx)} ${n(cy - r)}q${k} ${j} ${R} ${R}q-${j} ${k}-${R} ${R}q-${k}-${j}-${R}-${R}q${j}-${k} ${R}-${R}z" ` +
    `fill="${fill}"${opacity === 1 ? '' : ` opacity="${opacity}"`}/>`
  );
}

/** Sunburst wedges around a centre. */
export function rays(
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
export function hexCorners(
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

export function confetti(
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

export function sparkles(
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
