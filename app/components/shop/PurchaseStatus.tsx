// Where the member lands after the provider's page: 処理中 (the page asks the shop every 2 s for up
// to 2 minutes; without JavaScript it reloads itself), 完了 (the coins, the new balance, and the
// analytics purchase event once per order), or 失敗/キャンセル. Status changes are announced
// (aria-live). When the member came from a pack short of coins, 完了 leads straight back to that draw
// (「続けて10連を引く（…）」) and the other outcomes keep the draw on the way back to the shop.
// Shared by /shop/backfrom* and /app/return.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useRevalidator } from 'react-router';
import { ButtonLink } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { PageHeading } from '~/components/PageFrame';
import { Spinner } from '~/components/Spinner';
import { formatCoins, formatYen } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { trackPurchaseOnce } from '~/lib/shop-analytics';
import { continueDrawLabel, packDrawPath, withDrawContext } from '~/lib/draw-context';
import { drawOptionLabel } from '~/components/gacha/labels';
import type { CarriedDraw, OrderView, WalletView } from './types';

export const PURCHASE_POLL_INTERVAL_MS = 2_000;
export const PURCHASE_POLL_LIMIT_MS = 120_000;

export type PurchaseStatusView = 'processing' | 'review' | 'done' | 'canceled' | 'failed' | 'expired' | 'refunded';

/** What the page shows for an order's status. @example purchaseStatusView('pending', true) === 'canceled' */
export function purchaseStatusView(status: OrderView['status'], canceledByMember: boolean): PurchaseStatusView {
  switch (status) {
    case 'paid':
      return 'done';
    case 'pending':
      return canceledByMember ? 'canceled' : 'processing';
    case 'review':
      return 'review';
    case 'canceled':
      return 'canceled';
    case 'expired':
      return 'expired';
    case 'failed':
      return 'failed';
    default:
      return 'refunded';
  }
}

/** A provider's failure reason, when it is written for members (Japanese); otherwise a plain one. */
export function failureReasonText(reason: string | null): string {
  if (reason === 'provider_unavailable') return '決済サービスに接続できませんでした。';
  if (reason && /[\u3040-\u30ff\u4e00-\u9fff]/.test(reason)) return reason;
  return 'お支払いが承認されませんでした。';
}

export interface PurchaseStatusLinks {
  /** 「オリパを引く」. */
  draw: string;
  /** 「コインショップへ」 and 「別のお支払い方法で購入する」. */
  shop: string;
  /** The purchase history. */
  history: string;
}

export interface PurchaseStatusProps {
  order: OrderView;
  /** The member pressed cancel on the provider's page (`canceled=1`). */
  canceledByMember?: boolean;
  /** The wallet as the loader read it (after the credit when the order is paid). */
  balance: WalletView | null;
  /** The member's id, for the analytics purchase event. */
  userId: string;
  /** Without JavaScript: the address to reload every 3 s while pending (null when done waiting). */
  refreshUrl?: string | null;
  /** Without JavaScript the 2 minutes of waiting are over. */
  waitedTooLong?: boolean;
  /** The JSON status endpoint; default /api/v1/purchases/{order id}. */
  pollUrl?: string;
  links?: Partial<PurchaseStatusLinks>;
  /** The draw this purchase was made for (checked by the loader): 完了 offers it first. */
  continueDraw?: CarriedDraw | null;
  /** Extra actions under the state (for example 「アプリに戻る」). */
  children?: ReactNode;
}

const DEFAULT_LINKS: PurchaseStatusLinks = { draw: '/', shop: '/shop', history: '/mypage?tab=purchases' };

/**
 * @example <PurchaseStatus order={data.order} canceledByMember={data.canceledByMember} balance={data.balance} userId={data.userId} refreshUrl={data.refreshUrl} />
 */
export function PurchaseStatus(props: PurchaseStatusProps) {
  const links = { ...DEFAULT_LINKS, ...props.links };
  const draw = props.continueDraw ?? null;
  // The way back to the shop keeps the draw, so a second try still ends on the same pack.
  const shopHref = withDrawContext(links.shop, draw);
  const canceledByMember = props.canceledByMember ?? false;
  // What polling learnt, until the loader's own data catches up (it is revalidated when the status moves).
  const [polled, setPolled] = useState<Partial<OrderView> | null>(null);
  const [timedOut, setTimedOut] = useState(props.waitedTooLong ?? false);
  const order: OrderView =
    props.order.status === 'pending' && polled?.status && polled.id === props.order.id
      ? { ...props.order, ...polled }
      : props.order;
  const view = purchaseStatusView(order.status, canceledByMember);
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const pollUrl = props.pollUrl ?? `/api/v1/purchases/${encodeURIComponent(props.order.id)}`;
  const polling = view === 'processing';

  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    const controller = new AbortController();
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (stopped) return;
      if (Date.now() - started >= PURCHASE_POLL_LIMIT_MS) {
        setTimedOut(true);
        return;
      }
      try {
        const response = await fetch(pollUrl, {
          headers: { accept: 'application/json' },
          credentials: 'same-origin',
          signal: controller.signal,
        });
        if (response.ok) {
          const body = (await response.json()) as { purchase?: Partial<OrderView> };
          const purchase = body.purchase;
          if (!stopped && purchase?.status && purchase.status !== 'pending') {
            setPolled(purchase);
            void revalidate.current();
            return;
          }
        }
      } catch {
        if (stopped) return;
        // A network hiccup: ask again at the next tick.
      }
      if (!stopped) timer = setTimeout(tick, PURCHASE_POLL_INTERVAL_MS);
    };
    timer = setTimeout(tick, PURCHASE_POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [polling, pollUrl]);

  useEffect(() => {
    if (view === 'done') trackPurchaseOnce(order, props.userId);
    // Once per order: the order's id and state are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view, order.id, props.userId]);

  const total = order.paidCoins + order.bonusCoins + order.rankBonusCoins;
  // The balance is the loader's: it includes this order once the loader saw it paid.
  const balance = props.order.status === 'paid' ? props.balance : null;

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4" data-testid="purchase-status-page" data-state={view}>
      <PageHeading title="お支払い結果" />
      {polling && props.refreshUrl && !timedOut && (
        <noscript>
          <meta httpEquiv="refresh" content={`3;url=${props.refreshUrl}`} />
        </noscript>
      )}
      <section
        aria-labelledby="purchase-state-title"
        className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm"
      >
        <div
          role="status"
          aria-live="polite"
          aria-atomic="true"
          className="flex flex-col items-center gap-2 text-center"
        >
          <StateIcon view={view} />
          <h2 id="purchase-state-title" className="text-lg font-black" data-testid="purchase-state-title">
            {titleOf(view, total)}
          </h2>
          <p className="text-sm leading-relaxed text-muted" data-testid="purchase-state-message">
            {messageOf(view, order, timedOut)}
          </p>
        </div>
        {view === 'processing' && (
          <div className="flex flex-col gap-2">
            <div className="h-2 overflow-hidden rounded-full bg-canvas" role="progressbar" aria-label="お支払いの確認">
              <div
                className={`h-full rounded-full bg-primary ${timedOut ? 'w-full opacity-40' : 'w-2/3 animate-pulse'}`}
              />
            </div>
            {timedOut && (
              <p className="text-center text-sm">
                <AppLink to={links.history} className="font-bold text-primary-ink underline">
                  購入履歴を確認する
                </AppLink>
              </p>
            )}
          </div>
        )}
        {view === 'done' && <DoneDetails order={order} balance={balance} />}
        <OrderFacts order={order} />
      </section>
      {view === 'done' && draw && <ContinueDraw draw={draw} balance={balance} />}
      <div className="flex flex-col gap-2 sm:flex-row-reverse">
        {view === 'done' &&
          (draw ? (
            <ButtonLink to={shopHref} variant="secondary" size="lg" fullWidth className="!text-base">
              コインショップへ
            </ButtonLink>
          ) : (
            <>
              <ButtonLink to={links.draw} size="lg" fullWidth data-testid="go-draw">
                オリパを引く
              </ButtonLink>
              <ButtonLink to={links.shop} variant="secondary" size="lg" fullWidth className="!text-base">
                コインショップへ
              </ButtonLink>
            </>
          ))}
        {(view === 'failed' || view === 'canceled' || view === 'expired') && (
          <ButtonLink to={shopHref} size="lg" fullWidth className="!text-base" data-testid="retry-purchase">
            別のお支払い方法で購入する
          </ButtonLink>
        )}
        {(view === 'processing' || view === 'review' || view === 'refunded') && (
          <ButtonLink to={shopHref} variant="secondary" fullWidth>
            コインショップへ
          </ButtonLink>
        )}
      </div>
      {props.children}
    </div>
  );
}

/** 「続けて10連を引く（…）」: back to the pack with the draw's confirmation open, and what is still missing if the purchase fell short. */
function ContinueDraw({ draw, balance }: { draw: CarriedDraw; balance: WalletView | null }) {
  const missing = balance ? Math.max(0, draw.cost - balance.total) : 0;
  return (
    <div className="flex flex-col gap-1.5" data-testid="continue-draw-block">
      {/* The label is longer than a button word: at this smaller size white text needs the deeper pink (AA). */}
      <ButtonLink
        to={packDrawPath(draw)}
        size="lg"
        fullWidth
        className="!py-2 text-center !text-base leading-snug !bg-primary-ink hover:!bg-primary-dark"
        data-testid="continue-draw"
      >
        {continueDrawLabel(draw)}
      </ButtonLink>
      <p className={`text-center text-xs ${missing > 0 ? 'font-bold text-red-700' : 'text-muted'}`}>
        {missing > 0
          ? `${drawOptionLabel(draw.count)}（${formatCoins(draw.cost)}コイン）にはあと${formatCoins(missing)}コイン不足しています。`
          : `${drawOptionLabel(draw.count)}・${formatCoins(draw.cost)}コイン。引く前にもう一度確認します。`}
      </p>
    </div>
  );
}

function titleOf(view: PurchaseStatusView, total: number): string {
  switch (view) {
    case 'processing':
      return 'お支払いを確認しています…';
    case 'review':
      return 'お支払い内容を確認しています';
    case 'done':
      return `${formatCoins(total)}コインを付与しました`;
    case 'canceled':
      return 'お支払いはキャンセルされました';
    case 'expired':
      return 'お支払いの期限が切れました';
    case 'failed':
      return 'お支払いが完了しませんでした';
    case 'refunded':
      return 'このご注文は返金されました';
  }
}

function messageOf(view: PurchaseStatusView, order: OrderView, timedOut: boolean): string {
  switch (view) {
    case 'processing':
      return timedOut
        ? '確認に時間がかかっています。完了するとコインが自動で付与されます。'
        : 'このままお待ちください。確認が終わるとコインが付与されます。';
    case 'review':
      return 'お支払いの内容を当社で確認しています。確認が終わり次第コインを付与し、購入履歴に反映します。';
    case 'done':
      return 'ご購入ありがとうございます。コインはすぐにご利用いただけます。';
    case 'canceled':
      return 'コインは付与されていません。お支払い画面でお支払いが完了していた場合は、確認でき次第コインが付与されます。';
    case 'expired':
      return 'お支払いが時間内に完了しなかったため、このご注文は無効になりました。コインは付与されていません。';
    case 'failed':
      return `${failureReasonText(order.failureReason)}コインは付与されていません。`;
    case 'refunded':
      return `${formatYen(order.refundedJpy)}が返金され、このご注文のコインは取り消されました。`;
  }
}

function StateIcon({ view }: { view: PurchaseStatusView }) {
  if (view === 'processing' || view === 'review') {
    return (
      <div
        aria-hidden="true"
        className="flex size-14 items-center justify-center rounded-full bg-primary-soft text-primary-ink"
      >
        <Spinner className="size-7" label={null} />
      </div>
    );
  }
  if (view === 'done') {
    return (
      <div
        aria-hidden="true"
        className="flex size-14 items-center justify-center rounded-full bg-emerald-50 text-2xl font-black text-emerald-700"
      >
        ✓
      </div>
    );
  }
  return (
    <div
      aria-hidden="true"
      className="flex size-14 items-center justify-center rounded-full bg-canvas text-2xl font-black text-muted"
    >
      !
    </div>
  );
}

function DoneDetails({ order, balance }: { order: OrderView; balance: WalletView | null }) {
  return (
    <div className="flex flex-col gap-3">
      <dl
        className="divide-y divide-line rounded-xl bg-canvas text-sm"
        aria-label="付与されたコインの内訳"
        data-testid="credited-breakdown"
      >
        <div className="flex justify-between px-3 py-2">
          <dt>有償コイン</dt>
          <dd className="font-bold">{formatCoins(order.paidCoins)}コイン</dd>
        </div>
        <div className="flex justify-between px-3 py-2">
          <dt>無償ボーナス</dt>
          <dd className="font-bold">{formatCoins(order.bonusCoins)}コイン</dd>
        </div>
        <div className="flex justify-between px-3 py-2">
          <dt>ランクボーナス</dt>
          <dd className="font-bold">{formatCoins(order.rankBonusCoins)}コイン</dd>
        </div>
      </dl>
      {balance ? (
        <div className="rounded-xl border border-line p-3 text-center" data-testid="new-balance">
          <p className="text-xs text-muted">所持コイン</p>
          <p className="text-2xl font-black">
            {formatCoins(balance.total)}
            <span className="ml-1 text-sm">コイン</span>
          </p>
          <p className="text-xs text-muted">
            有償 {formatCoins(balance.paid)}・無償 {formatCoins(balance.free)}
          </p>
        </div>
      ) : (
        <p className="text-center text-xs text-muted">所持コインを更新しています…</p>
      )}
    </div>
  );
}

function OrderFacts({ order }: { order: OrderView }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 border-t border-line pt-3 text-xs">
      <dt className="text-muted">ご注文</dt>
      <dd>{order.packName}</dd>
      <dt className="text-muted">金額</dt>
      <dd>{formatYen(order.amountJpy)}（税込）</dd>
      <dt className="text-muted">お支払い方法</dt>
      <dd>{order.methodLabel}</dd>
      <dt className="text-muted">お申し込み日時</dt>
      <dd>
        <time dateTime={order.createdAt}>{formatMemberDateTime(order.createdAt)}</time>
      </dd>
      <dt className="text-muted">受付番号</dt>
      <dd className="font-mono">{order.receiptNo}</dd>
    </dl>
  );
}
