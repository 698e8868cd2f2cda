// The demo genre icons: abstract marks, deliberately unlike any franchise's logo or symbol.
import { linear, sparkle, svg } from './svg';

export const GENRES = ['pokemon', 'onepiece', 'yugioh', 'duelmasters', 'weiss', 'all'] as const;

/** Abstract 96×96 genre marks: deliberately unlike any franchise's logo or symbol. */
export function genreIcon(id: (typeof GENRES)[number]): string {
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
