// Prizes with their choices: convert to coins or keep for shipping, card by card or all at once,
// each undecided card with the time left before it is converted automatically.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Image } from '~/components/Image';
import { Button } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import { formatRemainingShort, formatYmdHm } from '~/lib/dates';
import { TIER_CHIP } from './labels';
import type { PrizeItem } from '../../../modules/draw';

/** A prize as the draw module lists it (a draw's result or the prize box). */
export type PrizeView = Pick<PrizeItem, 'prizeId' | 'tierLabel' | 'effect' | 'cardName' | 'imagePath' | 'rarity' | 'cardGrade' | 'conversionValue' | 'isLastOne' | 'status' | 'decideBy'> & {
  gachaTitle?: string;
};

const STATUS_LABEL: Record<PrizeView['status'], string> = {
  pending: '未選択',
  kept: '発送用に保管中',
  converted: 'コイン交換済み',
  shipping: '発送手続き中',
};

/** Re-renders every 30 s so countdowns move; server and first client render agree on `now`. */
function useNow(initial: string) {
  const [now, setNow] = useState(() => Date.parse(initial));
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function PrizeList({ prizes, renderedAt, showBulk = true }: { prizes: PrizeView[]; renderedAt: string; showBulk?: boolean }) {
  const navigation = useNavigation();
  const now = useNow(renderedAt);
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  const pendingIntent = busy ? navigation.formData?.get('intent') : null;
  const pendingIds = busy ? String(navigation.formData?.get('prizeIds') ?? '') : '';
  const open = prizes.filter((p) => p.status === 'pending' || p.status === 'kept');
  const openValue = open.reduce((sum, p) => sum + p.conversionValue, 0);
  const allIds = open.map((p) => p.prizeId).join(',');
  const undecided = prizes.filter((p) => p.status === 'pending');
  return (
    <div className="flex flex-col gap-4">
      {showBulk && open.length > 1 && (
        <div className="grid grid-cols-1 gap-2 rounded-2xl bg-white p-4 text-ink shadow-sm sm:grid-cols-2">
          <Form method="post" replace preventScrollReset>
            <input type="hidden" name="intent" value="convert" />
            <input type="hidden" name="prizeIds" value={allIds} />
            <Button type="submit" variant="primary" fullWidth loading={pendingIntent === 'convert' && pendingIds === allIds} disabled={busy} data-testid="convert-all">
              すべてコインに交換（{formatCoins(openValue)}コイン）
            </Button>
          </Form>
          {undecided.length > 0 && (
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="keep" />
              <input type="hidden" name="prizeIds" value={undecided.map((p) => p.prizeId).join(',')} />
              <Button type="submit" variant="secondary" fullWidth loading={pendingIntent === 'keep' && pendingIds.includes(',')} disabled={busy}>
                未選択をすべて発送用に保管
              </Button>
            </Form>
          )}
        </div>
      )}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="カード一覧">
        {prizes.map((prize) => {
          const left = prize.status === 'pending' ? formatRemainingShort(prize.decideBy, now) : '';
          const rowBusy = busy && pendingIds === prize.prizeId;
          return (
            <li key={prize.prizeId} className="flex flex-col overflow-hidden rounded-2xl bg-white text-ink shadow-sm" data-prize-id={prize.prizeId} data-status={prize.status}>
              <div className="relative bg-canvas">
                <Image src={prize.imagePath} alt={prize.cardName} width={240} height={336} className="mx-auto aspect-[5/7] h-auto w-3/4 object-contain py-2" />
                <span className={`absolute left-2 top-2 rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[prize.effect] ?? TIER_CHIP.normal}`}>{prize.tierLabel}</span>
              </div>
              <div className="flex flex-1 flex-col gap-1.5 p-3">
                <p className="line-clamp-2 text-sm font-bold leading-snug">{prize.cardName}</p>
                {prize.gachaTitle && <p className="line-clamp-1 text-[11px] text-muted">{prize.gachaTitle}</p>}
                <p className="text-xs text-muted">交換 <b className="text-ink">{formatCoins(prize.conversionValue)}</b>コイン</p>
                <p className="text-xs font-bold" data-testid="prize-status">
                  {STATUS_LABEL[prize.status]}
                  {prize.status === 'pending' && (
                    <span className="block font-normal text-red-700">
                      <time dateTime={prize.decideBy}>{left ? `自動交換まで${left.replace('残り', '')}` : 'まもなく自動交換'}</time>
                      <span className="block text-[11px] text-muted">期限 {formatYmdHm(prize.decideBy, 'slash')}</span>
                    </span>
                  )}
                </p>
                {(prize.status === 'pending' || prize.status === 'kept') && (
                  <div className="mt-auto flex flex-col gap-1.5 pt-1">
                    <Form method="post" replace preventScrollReset>
                      <input type="hidden" name="intent" value="convert" />
                      <input type="hidden" name="prizeIds" value={prize.prizeId} />
                      <Button type="submit" fullWidth loading={rowBusy && pendingIntent === 'convert'} disabled={busy} className="!min-h-10 !px-2 !text-xs" aria-label={`${prize.cardName}を${formatCoins(prize.conversionValue)}コインに交換`}>
                        コインに交換
                      </Button>
                    </Form>
                    {prize.status === 'pending' && (
                      <Form method="post" replace preventScrollReset>
                        <input type="hidden" name="intent" value="keep" />
                        <input type="hidden" name="prizeIds" value={prize.prizeId} />
                        <Button type="submit" variant="secondary" fullWidth loading={rowBusy && pendingIntent === 'keep'} disabled={busy} className="!min-h-10 !px-2 !text-xs" aria-label={`${prize.cardName}を発送用に保管`}>
                          発送用に保管
                        </Button>
                      </Form>
                    )}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
