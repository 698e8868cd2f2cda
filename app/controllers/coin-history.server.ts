// The coin history as the member reads it: the wallet's rows by action, each named after what it was
// for (the pack and count of a draw, the cards of a conversion, the receipt of a purchase).
import type { Database } from '#db/client';
import { listCoinHistory, type CoinHistoryRow } from '#modules/wallet';
import { describeDraws, describePrizes } from '#modules/draw';
import { drawOptionLabel } from '~/components/gacha/labels';
import { formatCoins } from '~/lib/numbers';

export interface CoinHistoryItem {
  id: number;
  title: string;
  /** A second line: the paid and free parts, a receipt number… */
  detail: string | null;
  amount: number;
  balanceAfter: number;
  createdAt: string;
  /** Where the action can be seen again (a draw's result). */
  href: string | null;
  /** The cards of a conversion, best first. */
  cards: { tierLabel: string; cardName: string; coins: number }[];
}

/**
 * One page of the coin history with every row named.
 * @example const { items, nextBefore } = await loadCoinHistory(db, member.id, { limit: 30 })
 */
export async function loadCoinHistory(
  db: Database,
  memberId: string,
  options: { limit: number; before?: number },
): Promise<{ items: CoinHistoryItem[]; nextBefore: number | null }> {
  const page = await listCoinHistory(db, memberId, options);
  const isConversion = (row: CoinHistoryRow) =>
    row.reason === 'prize_conversion' ||
    row.reason === 'prize_auto_conversion' ||
    row.reason === 'prize_conversion_undo';
  const [drawsById, prizesById] = await Promise.all([
    describeDraws(
      db,
      memberId,
      page.items.filter((r) => r.reason === 'draw').flatMap((r) => r.refs),
    ),
    describePrizes(
      db,
      memberId,
      page.items.filter(isConversion).flatMap((r) => r.refs),
    ),
  ]);
  const items = page.items.map((row): CoinHistoryItem => {
    const base = {
      id: row.id,
      amount: row.amount,
      balanceAfter: row.balanceAfter,
      createdAt: row.createdAt,
      href: null,
      cards: [],
      detail: null,
    };
    const split =
      row.paid !== 0 && row.free !== 0
        ? `有償${formatCoins(Math.abs(row.paid))}・無償${formatCoins(Math.abs(row.free))}`
        : row.paid !== 0
          ? '有償コイン'
          : '無償コイン';
    if (row.reason === 'draw') {
      const draw = drawsById.get(row.refs[0] ?? '');
      return {
        ...base,
        detail: split,
        title: draw ? `ガチャ「${draw.gachaTitle}」${drawOptionLabel(draw.count)}` : row.reasonLabel,
        href: draw ? `/gacha/${draw.genreId}/${draw.gachaId}/result/${row.refs[0]}` : null,
      };
    }
    if (isConversion(row)) {
      const cards = row.refs
        .map((id) => prizesById.get(id))
        .filter((c) => c !== undefined)
        .sort(
          (a, b) =>
            (a.isLastOne ? -1 : a.tierRank) - (b.isLastOne ? -1 : b.tierRank) || b.conversionValue - a.conversionValue,
        )
        .map((c) => ({ tierLabel: c.tierLabel, cardName: c.cardName, coins: c.conversionValue }));
      const n = row.entries.length;
      const title =
        row.reason === 'prize_auto_conversion'
          ? `期限切れのカード${n}枚を自動でコインに交換`
          : row.reason === 'prize_conversion_undo'
            ? n === 1 && cards[0]
              ? `カード「${cards[0].cardName}」の交換を取り消し`
              : `カード${n}枚の交換を取り消し`
            : n === 1 && cards[0]
              ? `カード「${cards[0].cardName}」をコインに交換`
              : `カード${n}枚をコインに交換`;
      return { ...base, title, detail: '無償コイン', cards: n > 1 ? cards : [] };
    }
    if (row.reason === 'purchase' || row.reason === 'purchase_bonus') {
      return { ...base, title: 'コイン購入', detail: `${split}${row.memo ? `・領収書番号 ${row.memo}` : ''}` };
    }
    if (row.reason === 'expiry') return { ...base, title: row.reasonLabel, detail: split };
    return { ...base, title: row.memo ? `${row.reasonLabel}（${row.memo}）` : row.reasonLabel, detail: split };
  });
  return { items, nextBefore: page.nextBefore };
}
