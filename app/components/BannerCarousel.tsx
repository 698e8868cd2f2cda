// The home banner carousel: swipeable (scroll snap), auto-advancing unless the member prefers less motion.
import { useEffect, useRef, useState } from 'react';
import { AppLink } from './AppLink';
import { Image } from './Image';

export interface Banner {
  id: string;
  imagePath: string;
  alt: string;
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
      <ul ref={track} onScroll={(e) => setCurrent(Math.round(e.currentTarget.scrollLeft / ((e.currentTarget.firstElementChild as HTMLElement | null)?.offsetWidth || e.currentTarget.clientWidth)))}
        className="flex snap-x snap-mandatory overflow-x-auto rounded-2xl [scrollbar-width:none]">
        {banners.map((banner, index) => (
          <li key={banner.id} className="w-full shrink-0 snap-start md:w-3/5 md:pr-3" aria-roledescription="スライド" aria-label={`${index + 1} / ${banners.length}`}>
            <AppLink to={banner.to} className="block aspect-[12/5] overflow-hidden rounded-2xl">
              <Image src={banner.imagePath} alt={banner.alt} width={1200} height={500} sizes="(min-width: 1152px) 1152px, 100vw" priority={index === 0} className="h-full w-full object-cover" />
            </AppLink>
          </li>
        ))}
      </ul>
      <div className="mt-2 flex justify-center gap-1.5" aria-hidden="true">
        {banners.map((banner, index) => (
          <span key={banner.id} className={`h-1.5 rounded-full transition-all ${index === current ? 'w-5 bg-primary' : 'w-1.5 bg-line'}`} />
        ))}
      </div>
    </section>
  );
}
