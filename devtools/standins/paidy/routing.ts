// The Paidy stand-in's routing: the payments API and the Paidy Checkout look-alike.
import { capturePayment, closePayment, refundPayment, retrievePayment } from './api';
import { showCheckout, submitCheckout } from './checkout-page';
import { type Route, WIDGET_PATH } from './state';

/** The payments API (under /payments), one handler per operation. */
export const API_ROUTES: readonly Route[] = [
  { method: 'get', path: '/:id', handle: retrievePayment },
  { method: 'post', path: '/:id/captures', handle: capturePayment },
  { method: 'post', path: '/:id/close', handle: closePayment },
  { method: 'post', path: '/:id/refunds', handle: refundPayment },
];

/** The Paidy Checkout look-alike. */
export const PAGE_ROUTES: readonly Route[] = [
  { method: 'get', path: WIDGET_PATH, handle: showCheckout },
  { method: 'post', path: WIDGET_PATH, handle: submitCheckout },
];
