// The demo packs' art: one mood per pack, a fan of cards on a sunburst.
import { type EmblemKind, fan } from './mini-card';
import { FOIL_STOPS, PACK_SCHEMES } from './palettes';
import {
  between,
  confetti,
  hexCorners,
  linear,
  mulberry32,
  pick,
  pts,
  radial,
  rays,
  seedOf,
  sparkle,
  sparkles,
  starPoints,
  svg,
} from './svg';

const PACK_EMBLEMS: readonly EmblemKind[] = ['star', 'diamond', 'hex', 'ring', 'moon'];

export function packArt(index: number): string {
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
