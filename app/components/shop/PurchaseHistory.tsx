// The purchase history (the coin shop and the mypage tab): one row per order, and for each paid
// order a 「領収書」 that opens in place as a printable receipt. No JavaScript needed (<details>).
import { useEffect, useState } from 'react';
import { formatCoins, formatYen } from '~/lib/numbers';
import { formatYmd, formatMemberDateTime } from '#modules/kernel/dates';
import { ButtonLink } from '~/components/Button';
import { openCheckoutLinks } from './OpenCheckoutNotice';
import type { PurchaseOrder } from './types';

const STATUS_TONE: Record<string, string> = {
  paid: 'bg-emerald-50 text-emerald-800',
  pending: 'bg-amber-50 text-amber-900',
  review: 'bg-amber-50 text-amber-900',
  failed: 'bg-red-50 text-red-700',
  canceled: 'bg-canvas text-muted',
  expired: 'bg-canvas text-muted',
  refunded: 'bg-canvas text-muted',
  charged_back: 'bg-red-50 text-red-700',
};

/** Coins the order gives (or gave): paid plus both bonuses. */
export const orderCoins = (order: Pick<PurchaseOrder, 'paidCoins' | 'bonusCoins' | 'rankBonusCoins'>) =>
  order.paidCoins + order.bonusCoins + order.rankBonusCoins;

export function PurchaseStatusChip({ order }: { order: Pick<PurchaseOrder, 'status' | 'statusLabel'> }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-bold ${STATUS_TONE[order.status] ?? 'bg-canvas text-muted'}`}
      data-testid="purchase-status"
    >
      {order.statusLabel}
    </span>
  );
}

/**
 * @example <PurchaseHistoryList items={history.items} sellerName={history.sellerName} />
 */
export function PurchaseHistoryList({
  items,
  sellerName,
  label = '購入履歴（新しい順）',
  back = '/mypage?tab=purchases',
}: {
  items: PurchaseOrder[];
  sellerName: string;
  label?: string;
  /** Where a cancelled checkout comes back to (this page). */
  back?: string;
}) {
  return (
    <ol className="divide-y divide-line overflow-hidden rounded-2xl bg-white shadow-sm" aria-label={label}>
      {items.map((order) => (
        <li key={order.id} className="flex flex-col gap-2 px-4 py-3 text-sm" data-testid="purchase-row">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="truncate font-bold">{order.packName}</p>
              <p className="text-xs text-muted">
                <time dateTime={order.createdAt}>{formatMemberDateTime(order.createdAt)}</time>・{order.methodLabel}
              </p>
            </div>
            <div className="shrink-0 text-right">
              <p className="font-black">{formatYen(order.amountJpy)}</p>
              <p className="text-xs text-muted">{formatCoins(orderCoins(order))}コイン</p>
            </div>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <PurchaseStatusChip order={order} />
            {order.refundedJpy > 0 && <span className="text-xs text-muted">返金額 {formatYen(order.refundedJpy)}</span>}
          </div>
          {order.openCheckout && (
            <div className="flex flex-col gap-2 rounded-xl bg-amber-50 p-3" data-testid="open-checkout-row">
              <p className="text-xs text-amber-950">
                お支払いが終わっていません。続きをお支払いいただくか、キャンセルできます。
              </p>
              <div className="grid grid-cols-2 gap-2">
                <ButtonLink to={openCheckoutLinks(order.id, back).resume} reloadDocument>
                  お支払いを再開<span className="sr-only">（{order.packName}）</span>
                </ButtonLink>
                <ButtonLink to={openCheckoutLinks(order.id, back).cancel} variant="plain">
                  キャンセル<span className="sr-only">（{order.packName}）</span>
                </ButtonLink>
              </div>
            </div>
          )}
          {order.creditedAt && (
            <details className="group rounded-xl border border-line">
              <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between px-3 text-xs font-bold text-primary-ink [&::-webkit-details-marker]:hidden">
                <span>
                  領収書<span className="sr-only">（{order.receiptNo}）</span>
                </span>
                <span aria-hidden="true" className="transition-transform group-open:rotate-180">
                  ▾
                </span>
              </summary>
              <Receipt order={order} sellerName={sellerName} />
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}

/** A receipt: 領収書, number, date, amount (tax included), 但し書き, seller, method. */
export function Receipt({ order, sellerName }: { order: PurchaseOrder; sellerName: string }) {
  const paidAt = order.creditedAt ?? order.createdAt;
  return (
    <article
      className="m-3 mt-0 flex flex-col gap-3 rounded-lg border border-ink/30 bg-white p-4 text-ink print:m-0 print:border-black"
      aria-label={`領収書 ${order.receiptNo}`}
      data-testid="receipt"
      data-receipt={order.receiptNo}
    >
      <h3 className="text-center text-xl font-black tracking-[0.4em]">領収書</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted">領収書番号</dt>
        <dd className="font-mono" data-testid="receipt-no">
          {order.receiptNo}
        </dd>
        <dt className="text-muted">発行日</dt>
        <dd>
          <time dateTime={paidAt}>{formatYmd(paidAt, 'ja')}</time>
        </dd>
      </dl>
      <p className="border-b-2 border-ink pb-1 text-center text-2xl font-black">
        {formatYen(order.amountJpy)}
        <span className="ml-1 text-sm font-bold">（税込）</span>
      </p>
      <p className="text-sm">但し　デジタルコイン代として</p>
      <p className="text-xs text-muted">上記正に領収いたしました。</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted">品目</dt>
        <dd>{order.packName}</dd>
        <dt className="text-muted">お支払い方法</dt>
        <dd>{order.methodLabel}</dd>
        <dt className="text-muted">販売事業者</dt>
        <dd className="font-bold">{sellerName}</dd>
      </dl>
      {order.refundedJpy > 0 && (
        <p className="rounded bg-canvas p-2 text-xs">この注文は{formatYen(order.refundedJpy)}が返金されています。</p>
      )}
      <PrintButton receiptNo={order.receiptNo} />
    </article>
  );
}

/**
 * Printing needs JavaScript: the button appears only once the page runs it. It marks which receipt to
 * print, so the print style (app.css) prints that receipt alone, not the page around it.
 */
function PrintButton({ receiptNo }: { receiptNo: string }) {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  const print = () => {
    const receipt = document.querySelector(`[data-receipt="${CSS.escape(receiptNo)}"]`);
    document.documentElement.dataset.printReceipt = receiptNo;
    receipt?.classList.add('printing');
    const done = () => {
      delete document.documentElement.dataset.printReceipt;
      receipt?.classList.remove('printing');
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    window.print();
  };
  return (
    <button
      type="button"
      onClick={print}
      className="self-end rounded-full border border-line px-3 py-1.5 text-xs font-bold hover:bg-canvas print:hidden"
    >
      印刷する
    </button>
  );
}
