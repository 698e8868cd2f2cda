// The shipping request's state machine as one table: which action moves a request from which status
// to which, and who may take it. Every change of a request's status asks `transition` first.
import { refuse, type Refusal } from '#modules/kernel';
import { shippingStatuses, type ShippingEventKind, type ShippingStatus } from './schema';

export { shippingStatuses, type ShippingStatus };

/** The statuses as the member and the desk read them. */
export const SHIPPING_STATUS_LABELS: Readonly<Record<ShippingStatus, string>> = {
  requested: '受付済み',
  preparing: '発送準備中',
  shipped: '発送済み',
  delivered: '配達完了',
  returned: '返送',
  canceled: 'キャンセル',
};

/** Who takes an action: the member on their own request, or the shop's staff at the desk. */
export type ShippingActionBy = 'member' | 'staff';

/**
 * Every action on a request. `from`: the statuses it may start from; `to`: where it leaves the
 * request; `event`: the timeline entry it writes. Nothing else moves a request.
 */
export const SHIPPING_TRANSITIONS = {
  /** The member cancels before the desk has started: prizes back to the box, the fee refunded. */
  cancel: { by: 'member', from: ['requested'], to: 'canceled', event: 'canceled', label: 'キャンセル' },
  /** The desk takes the request into a batch (pick list, packing). */
  prepare: { by: 'staff', from: ['requested'], to: 'preparing', event: 'preparing', label: '発送準備中にする' },
  /** Handed to the carrier with a tracking number. */
  ship: { by: 'staff', from: ['preparing'], to: 'shipped', event: 'shipped', label: '発送済みにする' },
  deliver: { by: 'staff', from: ['shipped'], to: 'delivered', event: 'delivered', label: '配達完了にする' },
  /** Undeliverable: the parcel came back (then re-ship or convert). */
  return: { by: 'staff', from: ['shipped'], to: 'returned', event: 'returned', label: '返送にする' },
  /** A returned parcel goes out again, packed anew. */
  reship: { by: 'staff', from: ['returned'], to: 'preparing', event: 'reshipping', label: '再発送する' },
  /** A returned parcel's cards become coins (the member is told); the request ends. */
  convertReturned: {
    by: 'staff',
    from: ['returned'],
    to: 'canceled',
    event: 'converted',
    label: 'コインに交換する',
  },
  /** The shop cancels (the member asked the support desk, a card cannot be sent): prizes back, fee refunded. */
  cancelByShop: {
    by: 'staff',
    from: ['requested', 'preparing'],
    to: 'canceled',
    event: 'canceled',
    label: '運営によるキャンセル',
  },
} as const satisfies Record<
  string,
  {
    by: ShippingActionBy;
    from: readonly ShippingStatus[];
    to: ShippingStatus;
    event: ShippingEventKind;
    label: string;
  }
>;

export type ShippingAction = keyof typeof SHIPPING_TRANSITIONS;
export const SHIPPING_ACTIONS = Object.keys(SHIPPING_TRANSITIONS) as ShippingAction[];

/** A refused move: the member's cancel has its own words; the desk's moves say the status they met. */
export type ShippingTransitionRefusal = Refusal<'SHIPPING_NOT_CANCELABLE' | 'SHIPPING_STATUS_CONFLICT'>;

/**
 * Where `action` leaves a request in `status`, or why it may not.
 * @example transition('ship', 'preparing') // { ok: true, to: 'shipped', event: 'shipped' }
 * @example transition('cancel', 'preparing') // { ok: false, code: 'SHIPPING_NOT_CANCELABLE', details: { status: 'preparing', action: 'cancel' } }
 */
export function transition(
  action: ShippingAction,
  status: ShippingStatus,
): { ok: true; to: ShippingStatus; event: ShippingEventKind } | ShippingTransitionRefusal {
  const rule = SHIPPING_TRANSITIONS[action];
  if ((rule.from as readonly ShippingStatus[]).includes(status)) return { ok: true, to: rule.to, event: rule.event };
  return refuse(action === 'cancel' ? 'SHIPPING_NOT_CANCELABLE' : 'SHIPPING_STATUS_CONFLICT', { status, action });
}

/** The actions open on a request in `status` for `by` (the desk's buttons, the member's cancel link). */
export function actionsFrom(status: ShippingStatus, by: ShippingActionBy): ShippingAction[] {
  return SHIPPING_ACTIONS.filter((action) => {
    const rule = SHIPPING_TRANSITIONS[action];
    return rule.by === by && (rule.from as readonly ShippingStatus[]).includes(status);
  });
}

/** Statuses in which the promise can still be broken: the parcel has not left. */
export const OPEN_SHIPPING_STATUSES: readonly ShippingStatus[] = ['requested', 'preparing'];
