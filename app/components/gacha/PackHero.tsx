// The pack page's picture: the SOLD OUT or CLOSED mark once it cannot be drawn, and the headline prize;
// and the notice beside the price that says it can no longer be drawn.
import { Image } from '~/components/Image';

export type PackClosed = 'sold_out' | 'ended' | null;

export function PackHero({
  imagePath,
  title,
  closed,
  headline,
}: {
  imagePath: string;
  title: string;
  closed: PackClosed;
  /** The 目玉賞品 shown over the picture. */
  headline: { cardImagePath: string; label: string; cardName: string } | null;
}) {
  return (
    <div className="relative self-start overflow-hidden rounded-2xl bg-white shadow-sm">
      <Image
        src={imagePath}
        alt={title}
        width={1200}
        height={900}
        sizes="(min-width: 768px) 50vw, 100vw"
        priority
        className="aspect-[4/3] h-auto w-full object-cover"
      />
      {closed && (
        <div className="absolute inset-0 flex items-center justify-center bg-black/55" data-testid="sold-out-mark">
          <span className="-rotate-6 rounded-lg border-4 border-white px-4 py-1.5 text-center text-2xl font-black tracking-widest text-white sm:text-3xl">
            {closed === 'sold_out' ? 'SOLD OUT' : 'CLOSED'}
            <span className="block text-sm tracking-normal">{closed === 'sold_out' ? '完売' : '販売終了'}</span>
          </span>
        </div>
      )}
      {headline && (
        <div
          className="absolute bottom-2 z-[1] left-2 right-2 flex items-center gap-2 rounded-xl bg-black/70 p-2 text-white"
          data-testid="hero-headline"
        >
          <Image
            src={headline.cardImagePath}
            alt=""
            width={48}
            height={67}
            className="h-[67px] w-12 shrink-0 rounded object-cover"
          />
          <p className="min-w-0 text-xs leading-snug">
            <span className="font-bold">目玉賞品</span>
            <span className="block truncate text-sm font-black">
              {headline.label} {headline.cardName}
            </span>
          </p>
        </div>
      )}
    </div>
  );
}

/** Sold out or ended: it cannot be drawn; a revealed pack points to its fairness proof. */
export function PackClosedNotice({ closed, revealed }: { closed: 'sold_out' | 'ended'; revealed: boolean }) {
  return (
    <p
      className="rounded-xl bg-slate-800 px-4 py-3 text-sm font-bold text-white"
      role="status"
      data-testid="sold-out-notice"
    >
      {closed === 'sold_out' ? '完売しました。' : '販売を終了しました。'}
      <span className="font-normal">
        このオリパはもう引けません。{revealed ? '中身の検証は下の「公平性の証明」でできます。' : ''}
      </span>
    </p>
  );
}
