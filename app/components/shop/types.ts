// The coin shop's view data, shared by the loaders (app/lib/shop.server.ts) and the components.
// Types only: nothing here may pull server code into the browser bundle.
import type { OpenCheckoutView, OrderView, PaymentMethod } from '#modules/payments';
import type { CarriedDraw } from '~/lib/draw-context';

export type { OrderView, PaymentMethod, CarriedDraw };

/** An order as the history and the return page show it, with its Japanese status word. */
export type PurchaseOrder = OrderView & {
  statusLabel: string;
  /** A checkout the member left open that can still be paid or cancelled (decision 058). */
  openCheckout?: boolean;
};

export interface PurchaseHistoryPage {
  items: PurchaseOrder[];
  /** The `before` cursor of the next (older) page, or null on the last page. */
  nextCursor: string | null;
  /** 販売事業者, printed on each receipt. */
  sellerName: string;
}

export interface WalletView {
  paid: number;
  free: number;
  total: number;
}

export interface PaymentMethodOption {
  method: PaymentMethod;
  label: string;
  note: string;
}

/** Everything the final confirmation screen (特定商取引法 第12条の6) shows. */
export interface CheckoutConfirmView {
  channel: 'web' | 'app';
  method: PaymentMethod;
  methodLabel: string;
  methodNote: string;
  packId: string;
  packName: string;
  priceJpy: number;
  paidCoins: number;
  bonusCoins: number;
  rankName: string;
  rankBonusPercent: number;
  rankBonusCoins: number;
  totalCoins: number;
  paidCoinDays: number;
  freeCoinDays: number;
  /** 支払時期, e.g. 「ご注文の確定時（即時）」. */
  paymentTiming: string;
  sellerName: string;
  capJpy: number;
  /** The member's own monthly purchase limit (decision 035) and what this month has used of it; null without one. */
  selfLimit: { limitJpy: number; usedJpy: number } | null;
  remainingJpy: number;
  declaredMinor: boolean;
  /** Buying this pack ends the member's 初回限定 offer (another pack on a first purchase). */
  endsFirstPurchaseOffer: boolean;
  /** The draw the member came to the shop for (web only), carried on to the order. */
  draw: CarriedDraw | null;
}

/** A purchase the shop cannot go on with: the member-facing Japanese reason and the HTTP status. */
export interface ShopRefusal {
  code: string;
  message: string;
  status: number;
}

export type CheckoutLoaderData =
  | {
      state: 'confirm';
      checkout: CheckoutConfirmView;
      orderKey: string;
      /** The member's open 初回限定 checkout, which holds this first-purchase pack back (decision 058). */
      openFirstPurchase?: OpenCheckoutView | null;
      /** This page's own address, where a cancel comes back to. */
      selfHref?: string;
      /** The member has just cancelled an open checkout from here. */
      canceledCheckout?: boolean;
    }
  | { state: 'refused'; refusal: ShopRefusal; draw?: CarriedDraw | null };

export interface CheckoutActionData {
  error: ShopRefusal;
  /** A fresh key for another try (the refused one may be spent). */
  orderKey: string;
}

export type ReturnLoaderData =
  | { state: 'not-found'; message: string; status: number }
  | {
      state: 'order';
      order: PurchaseOrder;
      /** The member pressed cancel on the provider's page (`canceled=1`). */
      canceledByMember: boolean;
      /** The wallet after this order (shown once it is paid). */
      balance: WalletView;
      userId: string;
      /** Without JavaScript: the address a `<meta refresh>` reloads while pending, or null once it has waited 2 minutes. */
      refreshUrl: string | null;
      /** The 2 minutes without JavaScript are over. */
      waitedTooLong: boolean;
      /** The draw this purchase was made for, checked again now (web only): 「続けて10連を引く（…）」. */
      continueDraw: CarriedDraw | null;
    };

/** Shown when the shop sells no coins (no payment method configured). */
export const SHOP_CLOSED_MESSAGE = 'コインの販売は準備中です';
