// The shipping request's state machine, exhaustively: every action from every status is either the
// one allowed move of the table or its refusal, and the table is the lifecycle issue 12 describes.
import { describe, expect, it } from 'vitest';
import {
  SHIPPING_ACTIONS,
  SHIPPING_STATUS_LABELS,
  SHIPPING_TRANSITIONS,
  actionsFrom,
  shippingStatuses,
  transition,
  type ShippingAction,
  type ShippingStatus,
} from './request-states';

/** The lifecycle written out by hand from the issue, independently of the table. */
const EXPECTED: Record<ShippingAction, Partial<Record<ShippingStatus, ShippingStatus>>> = {
  cancel: { requested: 'canceled' },
  prepare: { requested: 'preparing' },
  ship: { preparing: 'shipped' },
  deliver: { shipped: 'delivered' },
  return: { shipped: 'returned' },
  reship: { returned: 'preparing' },
  convertReturned: { returned: 'canceled' },
  cancelByShop: { requested: 'canceled', preparing: 'canceled' },
};

describe('the shipping state machine', () => {
  it('knows every action and labels every status', () => {
    expect([...SHIPPING_ACTIONS].sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const status of shippingStatuses) expect(SHIPPING_STATUS_LABELS[status]).toMatch(/[ぁ-んァ-ン一-龥]/);
  });

  for (const action of Object.keys(EXPECTED) as ShippingAction[]) {
    for (const status of shippingStatuses) {
      const to = EXPECTED[action][status];
      it(`${action} from ${status}: ${to ? `→ ${to}` : 'refused'}`, () => {
        const answer = transition(action, status);
        if (to) {
          expect(answer).toEqual({ ok: true, to, event: SHIPPING_TRANSITIONS[action].event });
        } else {
          expect(answer).toEqual({
            ok: false,
            code: action === 'cancel' ? 'SHIPPING_NOT_CANCELABLE' : 'SHIPPING_STATUS_CONFLICT',
            details: { status, action },
          });
        }
      });
    }
  }

  it('ends in delivered and canceled: nothing leaves them', () => {
    for (const action of SHIPPING_ACTIONS) {
      expect(transition(action, 'delivered').ok).toBe(false);
      expect(transition(action, 'canceled').ok).toBe(false);
    }
  });

  it('lets the member only cancel, and only before the desk starts', () => {
    expect(shippingStatuses.map((s) => [s, actionsFrom(s, 'member')])).toEqual([
      ['requested', ['cancel']],
      ['preparing', []],
      ['shipped', []],
      ['delivered', []],
      ['returned', []],
      ['canceled', []],
    ]);
  });

  it('offers the desk the moves of each status', () => {
    expect(Object.fromEntries(shippingStatuses.map((s) => [s, actionsFrom(s, 'staff')]))).toEqual({
      requested: ['prepare', 'cancelByShop'],
      preparing: ['ship', 'cancelByShop'],
      shipped: ['deliver', 'return'],
      delivered: [],
      returned: ['reship', 'convertReturned'],
      canceled: [],
    });
  });
});
