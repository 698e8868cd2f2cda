// A pack card for the grids: image, badges, title, price per draw and the remaining bar.
import { useLocation } from 'react-router';
import { AppLink } from './AppLink';
import { Image } from './Image';
import { formatCoins } from '~/lib/numbers';

export interface PackCardData {
  id: string;
  genreId: string;
  title: string;
  imagePath: string;
  pricePerDraw: number;
  totalLots: number;
  remainingLots: number;
  status: string;
  tags: string[];
}

/** Below this share of lots left the bar turns red and 残りわずか shows. */
export const LOW_STOCK_RATIO = 0.2;

export function PackCard({ pack, priority = false }: { pack: PackCardData; priority?: boolean }) {
  // Where the pack is opened from (the top page or a genre's list) goes with the gacha event.
  const { pathname } = useLocation();
  const soldOut = pack.status === 'sold_out' || pack.status === 'ended' || pack.remainingLots === 0;
  const ratio = pack.totalLots > 0 ? pack.remainingLots / pack.totalLots : 0;
  const low = !soldOut && ratio < LOW_STOCK_RATIO;
  const badges = [
    pack.tags.includes('hot') ? { label: '注目', className: 'bg-amber-300 text-ink' } : null,
    pack.tags.includes('new') ? { label: '新着', className: 'bg-sky-700 text-white' } : null,
    pack.tags.includes('limited') ? { label: '限定', className: 'bg-violet-600 text-white' } : null,
    low ? { label: '残りわずか', className: 'bg-red-600 text-white' } : null,
  ].filter((b): b is { label: string; className: string } => b !== null);
  return (
    <AppLink to={`/gacha/${pack.genreId}/${pack.id}`} state={{ from: pathname }} className="group flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-line transition hover:shadow-md">
      <div className="relative aspect-[4/3] overflow-hidden bg-canvas">
        <Image src={pack.imagePath} alt={pack.title} width={1200} height={900} sizes="(min-width: 1024px) 30vw, (min-width: 640px) 45vw, 50vw"
          priority={priority} className="h-full w-full object-cover transition group-hover:scale-[1.02]" />
        {badges.length > 0 ? (
          <ul className="absolute left-1.5 top-1.5 flex flex-wrap gap-1">
            {badges.map((b) => (
              <li key={b.label} className={`rounded-md px-1.5 py-0.5 text-[11px] font-black shadow ${b.className}`}>{b.label}</li>
            ))}
          </ul>
        ) : null}
        {soldOut ? (
          <div className="absolute inset-0 flex items-center justify-center bg-black/55">
            <span className="-rotate-6 rounded-lg border-2 border-white px-3 py-1 text-lg font-black tracking-widest text-white">SOLD OUT</span>
          </div>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-2.5 sm:p-3">
        <h2 className="line-clamp-2 text-[13px] font-bold leading-snug sm:text-sm">{pack.title}</h2>
        <p className="mt-auto text-sm font-black text-primary-ink sm:text-base">
          {formatCoins(pack.pricePerDraw)}<span className="text-xs font-bold">コイン</span>
          <span className="text-xs font-bold text-muted"> / 1回</span>
        </p>
        <div>
          <div className="h-1.5 overflow-hidden rounded-full bg-canvas" role="presentation">
            <div className={`h-full rounded-full ${low || soldOut ? 'bg-red-500' : 'bg-primary'}`} style={{ width: `${Math.round(ratio * 100)}%` }} />
          </div>
          <p className={`mt-1 text-[11px] ${low ? 'font-bold text-red-600' : 'text-muted'}`}>
            {soldOut ? '完売' : `残り ${formatCoins(pack.remainingLots)} / ${formatCoins(pack.totalLots)}口`}
          </p>
        </div>
      </div>
    </AppLink>
  );
}

export function PackGrid({ packs }: { packs: PackCardData[] }) {
  return (
    <ul className="grid grid-cols-2 gap-2.5 sm:gap-4 lg:grid-cols-4">
      {packs.map((pack, index) => (
        <li key={pack.id} className="flex">
          <div className="flex w-full"><PackCard pack={pack} priority={index < 2} /></div>
        </li>
      ))}
    </ul>
  );
}
