// The demo cards' art: frame and foil by rarity, a backdrop per element, the card's creature.
import { type DemoCard } from '../../db/demo/cards';
import { CREATURES, STYLE_OF, creature } from './creatures';
import { emblem } from './mini-card';
import { ELEMENTS, type Element, FOIL_STOPS, GOLD } from './palettes';
import {
  type Rng,
  between,
  hexCorners,
  linear,
  mulberry32,
  n,
  polyPoints,
  pts,
  radial,
  rays,
  seedOf,
  sparkle,
  sparkles,
  starPoints,
  svg,
} from './svg';

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

export function cardArt(card: DemoCard): string {
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
