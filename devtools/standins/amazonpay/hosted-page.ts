// The Amazon Pay stand-in's hosted page look-alike, and SNS's subscription and certificate endpoints.
import type { Context } from 'hono';
import { approve, buyerCancel, decline, returnTo, sessionView } from './objects';
import { checkoutPage, errorPage } from './pages';
import { idParam } from './sns';
import type { AmazonPayState } from './state';
import { amazonError } from './wire';

/** GET /checkout/:id: the hosted page look-alike of an open session. */
export function showCheckoutPage(state: AmazonPayState, c: Context): Response {
  const s = state.sessions.get(idParam(c));
  if (!s) return c.html(errorPage('このお支払いは見つかりません。'), 404);
  sessionView(state, s);
  if (s.statusDetails.state !== 'Open' || state.approved.has(s.checkoutSessionId)) {
    return c.html(errorPage('このお支払いはすでに手続きが終わっています。', returnTo(s, false)), 409);
  }
  return c.html(checkoutPage(s));
}

/** POST /checkout/:id: the buyer's button (approve, decline, cancel); 303 to the shop. */
export async function submitCheckoutPage(state: AmazonPayState, c: Context): Promise<Response> {
  const s = state.sessions.get(idParam(c));
  if (!s) return c.html(errorPage('このお支払いは見つかりません。'), 404);
  sessionView(state, s);
  if (s.statusDetails.state !== 'Open' || state.approved.has(s.checkoutSessionId)) {
    return c.html(errorPage('このお支払いはすでに手続きが終わっています。', returnTo(s, false)), 409);
  }
  const form = await c.req.parseBody();
  const action = typeof form.action === 'string' ? form.action : '';
  if (action === 'approve') return c.redirect(approve(state, s.checkoutSessionId), 303);
  if (action === 'decline') return c.redirect(decline(state, s.checkoutSessionId), 303);
  if (action === 'cancel') return c.redirect(buyerCancel(state, s.checkoutSessionId), 303);
  return c.html(errorPage('操作が正しくありません。'), 400);
}

/** GET /sns/?Action=ConfirmSubscription|Unsubscribe: SNS's links in its messages. */
export function snsSubscriptionAction(state: AmazonPayState, c: Context): Response {
  const action = c.req.query('Action');
  if (
    action === 'ConfirmSubscription' &&
    c.req.query('Token') === state.subscriptionToken &&
    c.req.query('TopicArn') === state.topicArn
  ) {
    state.subscriptionConfirmed = true;
    return c.body(
      `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${state.subscriptionArn}</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>`,
      200,
      { 'content-type': 'text/xml' },
    );
  }
  if (action === 'Unsubscribe')
    return c.body('<UnsubscribeResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"/>', 200, {
      'content-type': 'text/xml',
    });
  return c.body('<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code></Error></ErrorResponse>', 400, {
    'content-type': 'text/xml',
  });
}

/** GET /sns/SimpleNotificationService-<id>.pem: SNS's signing certificate (SigningCertURL). */
export function snsCertificate(state: AmazonPayState, c: Context): Response {
  if (c.req.param('file') !== `SimpleNotificationService-${state.certId}.pem`)
    return amazonError(c, 404, 'ResourceNotFound', 'The requested resource does not exist.');
  state.certificateDownloads += 1;
  return c.body(state.pems.cert, 200, { 'content-type': 'application/x-pem-file' });
}
