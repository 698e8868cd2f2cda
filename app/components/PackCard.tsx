// A pack card for the grids: image, badges, headline prize, title, price per draw and the remaining bar.
import { useLocation } from 'react-router';
import { AppLink } from './AppLink';
import { Image } from './Image';
import { formatCoins } from '~/lib/numbers';
import type { GachaListItem } from '#modules/gacha';

/** What a card shows of a listed pack (modules/gacha's GachaListItem; the headline may be left out). */
export type PackCardData = Pick<
  GachaListItem,
  'id' | 'genreId' | 'title' | 'imagePath' | 'pricePerDraw' | 'totalLots' | 'remainingLots' | 'status' | 'tags'
> & {
  /** The best tier's card (from listGachas); absent for a pack without tiers. */
  headline?: GachaListItem['headline'];
};

/** Below this share of lots left the bar turns red and 残りわずか shows. */
export const LOW_STOCK_RATIO = 0.2;

export function PackCard({ pack, priority = false }: { pack: PackCardData; priority?: boolean }) {
  // Where the pack is opened from (the top page or a genre's list) goes with the gacha event.
  const { pathname } = useLocation();
  // An ended pack may still hold lots: it says 販売終了, not 完売.
  const ended = pack.status === 'ended' && pack.remainingLots > 0;
  const soldOut = !ended && (pack.status === 'sold_out' || pack.remainingLots === 0);
  const closed = soldOut || ended;
  const ratio = pack.totalLots > 0 ? pack.remainingLots / pack.totalLots : 0;
  const low = !closed && ratio < LOW_STOCK_RATIO;
  const badges = [
    pack.tags.includes('hot') ? { label: '注目', className: 'bg-amber-300 text-ink' } : null,
    pack.tags.includes('new') ? { label: '新着', className: 'bg-sky-700 text-white' } : null,
    pack.tags.includes('limited') ? { label: '限定', className: 'bg-violet-600 text-white' } : null,
    low ? { label: '残りわずか', className: 'bg-red-600 text-white' } : null,
  ].filter((b): b is { label: string; className: string } => b !== null);
  return (
    <AppLink
      to={`/gacha/${pack.genreId}/${pack.id}`}
      state={{ from: pathname }}
      className="group flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-line transition hover:shadow-md"
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-canvas">
        <Image
          src={pack.imagePath}
          alt={pack.title}
          width={1200}
          height={900}
          sizes="(min-width: 1024px) 30vw, (min-width: 640px) 45vw, 50vw"
          priority={priority}
          className="h-full w-full object-cover transition group-hover:scale-[1.02]"
        />
        {badges.length > 0 ? (
          <ul className="absolute left-1.5 top-1.5 flex flex-wrap gap-1">
            {badges.map((b) => (
              <li key={b.label} className={`rounded-md px-1.5 py-0.5 text-xs font-black shadow ${b.className}`}>
                {b.label}
              </li>
            ))}
          </ul>
        ) : null}
        {pack.headline ? (
          <div className="absolute bottom-1.5 right-1.5 w-[22%] overflow-hidden rounded-md shadow-md ring-2 ring-white">
            <Image
              src={pack.headline.cardImagePath}
              alt=""
              width={96}
              height={134}
              className="aspect-[630/880] h-auto w-full object-cover"
            />
          </div>
        ) : null}
        {closed ? (
          <div className="absolute inset-0 flex items-center justify-center bg-black/55" data-testid="pack-closed">
            <span className="-rotate-6 rounded-lg border-2 border-white px-3 py-1 text-center text-lg font-black tracking-widest text-white">
              {soldOut ? 'SOLD OUT' : 'CLOSED'}
              <span className="block text-xs tracking-normal">{soldOut ? '完売' : '販売終了'}</span>
            </span>
          </div>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-2.5 sm:p-3">
        <h2 className="line-clamp-2 text-[13px] font-bold leading-snug sm:text-sm">{pack.title}</h2>
        {pack.headline ? (
          <p className="line-clamp-1 text-xs text-muted" data-testid="pack-headline">
            <span className="font-bold text-ink">{pack.headline.label}</span> {pack.headline.cardName}
          </p>
        ) : null}
        <p className="mt-auto text-sm font-black text-primary-ink sm:text-base">
          {formatCoins(pack.pricePerDraw)}
          <span className="text-xs font-bold">コイン</span>
          <span className="text-xs font-bold text-muted"> / 1回</span>
        </p>
        <div>
          <div className="h-1.5 overflow-hidden rounded-full bg-canvas" role="presentation">
            <div
              className={`h-full rounded-full ${low || closed ? 'bg-red-500' : 'bg-primary'}`}
              style={{ width: `${Math.round(ratio * 100)}%` }}
            />
          </div>
          <p
            className={`mt-1 text-xs ${low ? 'font-bold text-red-600' : closed ? 'font-bold text-ink' : 'text-muted'}`}
          >
            {soldOut
              ? '完売'
              : ended
                ? '販売終了'
                : `残り ${formatCoins(pack.remainingLots)} / ${formatCoins(pack.totalLots)}口`}
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
          <div className="flex w-full">
            <PackCard pack={pack} priority={index < 2} />
          </div>
        </li>
      ))}
    </ul>
  );
}
