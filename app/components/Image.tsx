// Responsive <img> served through the /_img resizer: fixed box (no layout shift), lazy unless priority.
import { buildSrcSet } from '#modules/kernel/image-srcset';

/** Props for {@link Image}. */
export interface ImageProps {
  /** A local path under public/, e.g. `/demo/packs/pack-01.svg`. */
  src: string;
  /**
   * Text alternative. Pass `""` ONLY for purely decorative images (backgrounds, ornaments next to
   * text that already says the same): screen readers then skip the image. Content images such as
   * pack visuals or card art need a real description, e.g. `"ポケモン 10,000円オリパのパック画像"`.
   */
  alt: string;
  /** Intrinsic width in CSS px; with `height` it reserves the box so the layout never shifts. */
  width: number;
  /** Intrinsic height in CSS px. */
  height: number;
  /** `sizes` for fluid images (e.g. `"(min-width: 768px) 50vw, 100vw"`); omit for fixed-size images. */
  sizes?: string;
  /** Above-the-fold / LCP image: load eagerly with high fetch priority. */
  priority?: boolean;
  className?: string;
  /** Encoder quality 1–100 (default 75). */
  quality?: number;
}

/**
 * Renders one `<img>` whose srcset points at the resizer. Pure: no state or effects, so server and
 * client render the same markup and hydration never mismatches. Style it with CSS such as
 * `h-auto w-full` for fluid images; the width/height attributes still give the aspect ratio.
 * @example
 * <Image src="/demo/packs/pack-01.svg" alt="炎のパック" width={1200} height={900}
 *        sizes="(min-width: 1024px) 33vw, 100vw" priority />
 */
export function Image({ src, alt, width, height, sizes, priority = false, className, quality }: ImageProps) {
  const attrs = sizes !== undefined ? buildSrcSet(src, { sizes, quality }) : buildSrcSet(src, { width, quality });
  // Attribute order matters: browsers (Safari, Firefox) may start fetching `src` as soon as it is set
  // during client rendering, so `loading`, `sizes` and `srcSet` come before `src`.
  return (
    <img
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={className}
      sizes={attrs.sizes}
      srcSet={attrs.srcSet}
      src={attrs.src}
    />
  );
}
