// An image field: site images through the shop's resizer (srcset, fixed box), others (a Prismic CDN
// URL over https) as a plain <img>; always with width and height (no layout shift), lazy and with alt.
import { safeImageUrl, type ImageField } from '#modules/content/render';
import { Image } from '../Image';

/** Paths the /_img resizer serves: plain files in public/ or uploads under /media/, no query. */
const RESIZABLE = /^\/[A-Za-z0-9_./-]+\.(png|jpe?g|webp|avif|gif)$/i;

export function ContentImage({
  image,
  sizes = '(min-width: 768px) 720px, 100vw',
  className = 'h-auto w-full rounded-lg',
}: {
  image: ImageField;
  sizes?: string;
  className?: string;
}) {
  const src = safeImageUrl(image.url);
  const { width, height } = image.dimensions;
  if (!src || !(width > 0 && height > 0)) return null;
  // An empty alt (decorative) is the editor's choice; missing alt text is read as decorative too,
  // rather than letting a screen reader spell out the file name.
  const alt = image.alt ?? '';
  if (RESIZABLE.test(src) && !src.includes('..'))
    return <Image src={src} alt={alt} width={width} height={height} sizes={sizes} className={className} />;
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      className={className}
    />
  );
}
