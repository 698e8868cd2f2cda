// Responsive image URLs for the /_img resizer: the allowed widths (shared with the server) and srcset building.

/**
 * The only widths the resizer renders. Shared with `server/images` so a client can never ask
 * for an arbitrary width and fill the disk cache with variants.
 * @example IMAGE_WIDTHS.includes(828) // true
 */
export const IMAGE_WIDTHS = [640, 828, 1200, 2048, 3840] as const;

/**
 * Pixel densities offered for fixed-width images (1x, 2x, 3x screens).
 * @example IMAGE_DENSITIES[1] // 2
 */
export const IMAGE_DENSITIES = [1, 2, 3] as const;

/** One of {@link IMAGE_WIDTHS}. */
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** Quality used when the caller gives none; matches the server's default. */
export const DEFAULT_IMAGE_QUALITY = 75;

/**
 * Whether `width` is one the resizer accepts.
 * @example isImageWidth(828) // true; isImageWidth(800) // false
 */
export function isImageWidth(width: number): width is ImageWidth {
  return (IMAGE_WIDTHS as readonly number[]).includes(width);
}

/**
 * The resizer URL for one local image at one width.
 * @example imageUrl('/demo/packs/pack-01.svg', 828) // '/_img?src=%2Fdemo%2Fpacks%2Fpack-01.svg&w=828&q=75'
 */
export function imageUrl(src: string, width: number, quality: number = DEFAULT_IMAGE_QUALITY): string {
  return `/_img?src=${encodeURIComponent(src)}&w=${width}&q=${quality}`;
}

/** Options for {@link buildSrcSet}. */
export interface SrcSetOptions {
  /** The CSS width the image is displayed at, for fixed-size images (gives 1x/2x/3x descriptors). */
  width?: number;
  /** The `sizes` attribute for fluid images (gives width descriptors over every allowed width). */
  sizes?: string;
  /** Encoder quality 1–100; 75 when omitted. */
  quality?: number;
}

/** Attributes for an `<img>`: `src` is the fallback for browsers without srcset support. */
export interface SrcSetResult {
  src: string;
  srcSet: string;
  sizes?: string;
}

/** The smallest allowed width that is at least `needed`, or the largest one when none is. */
function smallestWidthAtLeast(needed: number): ImageWidth {
  for (const w of IMAGE_WIDTHS) if (w >= needed) return w;
  return IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1];
}

/**
 * Builds `src`/`srcSet`/`sizes` the way Next.js's image loader does.
 * With `sizes` (fluid image) the browser picks from width descriptors over every allowed width and
 * `src` is the largest. With only a display `width`, the browser picks by pixel density: each of
 * 1x/2x/3x uses the smallest allowed width covering width×density, and a density that maps to the
 * same file as a lower one is dropped (it would download the same bytes). With neither, the image
 * is treated as full-viewport (`sizes="100vw"`).
 * @example
 * buildSrcSet('/demo/cards/card-01.svg', { width: 300 })
 * // { src: '/_img?src=%2Fdemo%2Fcards%2Fcard-01.svg&w=640&q=75',
 * //   srcSet: '/_img?src=…&w=640&q=75 1x, /_img?src=…&w=1200&q=75 3x' }
 */
export function buildSrcSet(src: string, options: SrcSetOptions = {}): SrcSetResult {
  const quality = options.quality ?? DEFAULT_IMAGE_QUALITY;
  const sizes = options.sizes ?? (options.width === undefined ? '100vw' : undefined);

  if (sizes !== undefined) {
    const srcSet = IMAGE_WIDTHS.map((w) => `${imageUrl(src, w, quality)} ${w}w`).join(', ');
    return { src: imageUrl(src, IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1], quality), srcSet, sizes };
  }

  const displayWidth = options.width ?? 0;
  const seen = new Set<number>();
  const entries: string[] = [];
  for (const density of IMAGE_DENSITIES) {
    const w = smallestWidthAtLeast(displayWidth * density);
    if (seen.has(w)) continue;
    seen.add(w);
    entries.push(`${imageUrl(src, w, quality)} ${density}x`);
  }
  return { src: imageUrl(src, smallestWidthAtLeast(displayWidth), quality), srcSet: entries.join(', ') };
}
