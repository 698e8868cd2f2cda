// The pack page's draw bar fixed at the bottom of a phone's screen: the price, what is left, the draw buttons.
import { formatCoins } from '~/lib/numbers';
import { DrawPanel, type DrawPanelProps } from './DrawPanel';
import type { PackClosed } from './PackHero';

export function MobileDrawBar({
  price,
  remaining,
  totalLots,
  closed,
  panel,
}: {
  price: number;
  remaining: number;
  totalLots: number;
  closed: PackClosed;
  panel: DrawPanelProps;
}) {
  return (
    <div className="fixed inset-x-0 bottom-0 z-tabbar border-t border-line bg-white p-3 pb-safe md:hidden">
      <p className="mb-2 flex justify-between text-xs text-muted">
        <span>
          <b className="text-primary-ink">{formatCoins(price)}コイン</b> / 1回
        </span>
        {closed ? (
          <b className="text-ink">{closed === 'sold_out' ? '完売：もう引けません' : '販売終了：もう引けません'}</b>
        ) : (
          <span>
            残り {formatCoins(remaining)} / {formatCoins(totalLots)}口
          </span>
        )}
      </p>
      <DrawPanel {...panel} compact />
    </div>
  );
}
