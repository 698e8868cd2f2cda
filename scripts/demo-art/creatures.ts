// The demo cards' creatures and emblems, built only from basic shapes.
import { type DemoCard } from '../../db/demo/cards';
import { type Element } from './palettes';
import { n, polyPoints, pts, sparkle, starPoints } from './svg';

type CreatureKind = 'sprite' | 'bird' | 'drake' | 'golem' | 'crest' | 'fox';
type Rarity = 'C' | 'R' | 'SR' | 'UR';

/** The frame and foil style of each printed rarity (SAR and UR get the gold frame). */
export const STYLE_OF: Record<DemoCard['rarity'], Rarity> = { SAR: 'UR', UR: 'UR', SR: 'SR', RR: 'R', R: 'R', C: 'C' };
export const CREATURES: readonly CreatureKind[] = ['sprite', 'bird', 'drake', 'golem', 'crest', 'fox'];

function eye(x: number, y: number, r: number, dark: string): string {
  return (
    `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r * 0.85)}" ry="${n(r)}" fill="#fff" stroke="${dark}" stroke-width="4"/>` +
    `<circle cx="${n(x + r * 0.1)}" cy="${n(y + r * 0.12)}" r="${n(r * 0.55)}" fill="${dark}"/>` +
    `<circle cx="${n(x + r * 0.3)}" cy="${n(y - r * 0.15)}" r="${n(r * 0.22)}" fill="#fff"/>`
  );
}

/** Original creatures and emblems built only from basic shapes, centred on (cx, cy) with size s. */
export function creature(kind: CreatureKind, cx: number, cy: number, s: number, e: Element): string {
  const ol = `stroke="${e.dark}" stroke-width="5" stroke-linejoin="round"`;
  switch (kind) {
    case 'sprite':
      return sprite(cx, cy, s, e, ol);
    case 'bird':
      return bird(cx, cy, s, e, ol);
    case 'drake':
      return drake(cx, cy, s, e, ol);
    case 'golem':
      return golem(cx, cy, s, e, ol);
    case 'crest':
      return crest(cx, cy, s, e, ol);
    case 'fox':
      return fox(cx, cy, s, e, ol);
  }
}

function sprite(cx: number, cy: number, s: number, e: Element, ol: string): string {
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
}

function bird(cx: number, cy: number, s: number, e: Element, ol: string): string {
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

function drake(cx: number, cy: number, s: number, e: Element, ol: string): string {
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

function golem(cx: number, cy: number, s: number, e: Element, ol: string): string {
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

function crest(cx: number, cy: number, s: number, e: Element, ol: string): string {
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

function fox(cx: number, cy: number, s: number, e: Element, ol: string): string {
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
