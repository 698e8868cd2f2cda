// The small card the demo art fans out on packs and banners.
import { n, polyPoints, pts, sparkle, starPoints } from './svg';

export type EmblemKind = 'star' | 'hex' | 'ring' | 'diamond' | 'moon';

export function emblem(kind: EmblemKind, cx: number, cy: number, r: number, fill: string, stroke: string): string {
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

export function fan(
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
