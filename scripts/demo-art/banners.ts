// The demo banners' art.
import { fan } from './mini-card';
import { FOIL_STOPS, PACK_SCHEMES } from './palettes';
import {
  between,
  confetti,
  linear,
  mulberry32,
  pts,
  radial,
  rays,
  seedOf,
  sparkle,
  sparkles,
  starPoints,
  svg,
} from './svg';

export function bannerArt(index: number): string {
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
