// The home banner carousel: swipeable (scroll snap), auto-advancing unless the member prefers less motion.
// Each banner's title and period are real text over the art (readable, translatable, indexable).
import { useEffect, useRef, useState } from 'react';
import { AppLink } from './AppLink';
import { Image } from './Image';

export interface Banner {
  id: string;
  imagePath: string;
  title: string;
  /** The art described (set in /admin/banners); '' for art that only decorates the title. */
  alt?: string;
  /** 「12月1日〜12月25日」, or null for a standing banner. */
  period: string | null;
  to: string;
}

export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const track = useRef<HTMLUListElement>(null);
  const [current, setCurrent] = useState(0);
  useEffect(() => {
    const element = track.current;
    if (!element || banners.length < 2 || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const timer = window.setInterval(() => {
      const slide = (element.firstElementChild as HTMLElement | null)?.offsetWidth || element.clientWidth;
      const atEnd = element.scrollLeft + element.clientWidth >= element.scrollWidth - 4;
      element.scrollTo({ left: atEnd ? 0 : element.scrollLeft + slide, behavior: 'smooth' });
    }, 5000);
    return () => window.clearInterval(timer);
  }, [banners.length]);
  if (banners.length === 0) return null;
  return (
    <section aria-roledescription="カルーセル" aria-label="おすすめ" className="relative">
      <ul
        ref={track}
        onScroll={(e) =>
          setCurrent(
            Math.round(
              e.currentTarget.scrollLeft /
                ((e.currentTarget.firstElementChild as HTMLElement | null)?.offsetWidth || e.currentTarget.clientWidth),
            ),
          )
        }
        className="flex snap-x snap-mandatory overflow-x-auto rounded-2xl [scrollbar-width:none]"
      >
        {banners.map((banner, index) => (
          <li
            key={banner.id}
            className="w-full shrink-0 snap-start md:w-3/5 md:pr-3"
            aria-roledescription="スライド"
            aria-label={`${index + 1} / ${banners.length}`}
          >
            <AppLink to={banner.to} className="relative block aspect-[12/5] overflow-hidden rounded-2xl">
              {/* The text below names the banner; the alt text describes the art when the console gave one. */}
              {banner.imagePath.startsWith('/media/') ? (
                // Uploaded art is stored already sized (1200×500 WebP) and served immutable: no resizer.
                <img
                  src={banner.imagePath}
                  alt={banner.alt ?? ''}
                  width={1200}
                  height={500}
                  loading={index === 0 ? 'eager' : 'lazy'}
                  fetchPriority={index === 0 ? 'high' : undefined}
                  decoding="async"
                  className="h-full w-full object-cover"
                />
              ) : (
                <Image
                  src={banner.imagePath}
                  alt={banner.alt ?? ''}
                  width={1200}
                  height={500}
                  sizes="(min-width: 1152px) 1152px, 100vw"
                  priority={index === 0}
                  className="h-full w-full object-cover"
                />
              )}
              <span className="absolute inset-x-0 bottom-0 flex flex-col gap-0.5 bg-gradient-to-t from-black/85 via-black/60 to-transparent px-3 pb-2.5 pt-8 text-white sm:px-5 sm:pb-4">
                <span
                  className="text-base font-black leading-tight [text-shadow:0_1px_2px_rgb(0_0_0/0.6)] sm:text-2xl"
                  data-testid="banner-title"
                >
                  {banner.title}
                </span>
                {banner.period ? (
                  <span className="text-xs font-bold sm:text-sm" data-testid="banner-period">
                    期間：{banner.period}
                  </span>
                ) : null}
              </span>
            </AppLink>
          </li>
        ))}
      </ul>
      <div className="mt-2 flex justify-center gap-1.5" aria-hidden="true">
        {banners.map((banner, index) => (
          <span
            key={banner.id}
            className={`h-1.5 rounded-full transition-all ${index === current ? 'w-5 bg-primary' : 'w-1.5 bg-line'}`}
          />
        ))}
      </div>
    </section>
  );
}
