// The Amazon Pay stand-in's Seller Central-like controls for tests and the shop's wiring.
import { randomUUID } from 'node:crypto';
import { type listenStandin } from '#devtools/standins/shared';
import type { AmazonPayStandin, AmazonPayStandinDispute } from './index';

import {
  approve,
  buyerCancel,
  chargeOf,
  chargeView,
  createRefund,
  decline,
  openSession,
  refundView,
  sessionView,
} from './objects';
import { buildNotification, post, sendNotification, snsMessage } from './sns';
import type { AmazonPayState } from './state';
import { amazonTime, digits, setStatus, yen } from './wire';

/** What tests and the shop's wiring hold: URLs, close(), and Seller Central-like controls. */
export function controlsOf(
  state: AmazonPayState,
  listening: Awaited<ReturnType<typeof listenStandin>>,
): AmazonPayStandin {
  return {
    url: listening.url,
    snsOrigin: state.snsOrigin,
    topicArn: state.topicArn,
    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      await Promise.allSettled([...state.inFlight]);
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getSession: (id) => {
      const s = state.sessions.get(id);
      return s ? structuredClone(sessionView(state, s)) : undefined;
    },
    getCharge: (id) => {
      const charge = state.charges.get(id);
      return charge ? structuredClone(chargeView(state, charge)) : undefined;
    },
    getRefund: (id) => {
      const refund = state.refunds.get(id);
      return refund ? structuredClone(refundView(state, refund)) : undefined;
    },
    getDispute: (id) => {
      const dispute = state.disputes.get(id);
      return dispute ? structuredClone(dispute) : undefined;
    },
    approve: (id) => approve(state, id),
    decline: (id) => decline(state, id),
    cancel: (id) => buyerCancel(state, id),
    expire(id) {
      const s = openSession(state, id);
      s.expirationTimestamp = amazonTime(Date.now() - 1000);
      sessionView(state, s);
    },
    async refund(id, amountJpy) {
      const refund = createRefund(state, chargeView(state, chargeOf(state, id)), amountJpy);
      if ('reasonCode' in refund) throw new Error(`amazonpay stand-in: ${refund.reasonCode}: ${refund.message}`);
      if (refund.statusDetails.state === 'RefundInitiated') {
        setStatus(refund, 'Refunded', null, null);
        const charge = state.charges.get(refund.chargeId)!;
        charge.refundedAmount = yen(Number(charge.refundedAmount.amount) + amountJpy);
      }
      await sendNotification(state, 'REFUND', refund.refundId);
      return structuredClone(refund);
    },
    async chargeback(id) {
      const charge = chargeOf(state, id);
      if (charge.statusDetails.state !== 'Captured' || !charge.captureAmount)
        throw new Error(`amazonpay stand-in: charge ${charge.chargeId} is ${charge.statusDetails.state}`);
      const dispute: AmazonPayStandinDispute = {
        disputeId: `${charge.chargePermissionId}-B${digits(6)}`,
        chargeId: charge.chargeId,
        releaseEnvironment: charge.releaseEnvironment,
        disputeType: 'Chargeback',
        disputeAmount: { ...charge.captureAmount },
        filingReason: 'Fraudulent',
        statusDetails: {
          state: 'UnderReview',
          reasonCode: null,
          reasonDescription: null,
          resolution: null,
          lastUpdatedTimestamp: amazonTime(),
        },
        merchantEvidences: [],
        merchantResponseDeadline: amazonTime(Date.now() + 11 * 86_400_000),
        resolutionAuthority: 'AmazonPay',
        creationTimestamp: amazonTime(),
      };
      state.disputes.set(dispute.disputeId, dispute);
      await sendNotification(state, 'CHARGEBACK', dispute.disputeId);
      return structuredClone(dispute);
    },
    async resolveDispute(disputeId, resolution) {
      const dispute = state.disputes.get(disputeId);
      if (!dispute) throw new Error(`amazonpay stand-in: no dispute ${disputeId}`);
      dispute.statusDetails = {
        state: 'Resolved',
        reasonCode: null,
        reasonDescription: null,
        resolution,
        lastUpdatedTimestamp: amazonTime(),
      };
      await sendNotification(state, 'CHARGEBACK', disputeId);
      return structuredClone(dispute);
    },
    sendNotification: (objectType, objectId) => sendNotification(state, objectType, objectId),
    buildNotification: (input) => buildNotification(state, input),
    sendSubscriptionConfirmation() {
      const subscribeUrl = `${state.snsOrigin}/sns/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(state.topicArn)}&Token=${state.subscriptionToken}`;
      return post(
        state,
        snsMessage(
          state,
          {
            Type: 'SubscriptionConfirmation',
            MessageId: randomUUID(),
            Token: state.subscriptionToken,
            TopicArn: state.topicArn,
            Message: `You have chosen to subscribe to the topic ${state.topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
            SubscribeURL: subscribeUrl,
            Timestamp: new Date().toISOString(),
          },
          state.snsVersion,
        ),
      );
    },
    get subscriptionConfirmed() {
      return state.subscriptionConfirmed;
    },
    get notifications() {
      return state.notifications;
    },
    get certificateDownloads() {
      return state.certificateDownloads;
    },
    failNext(count, statusCode = 503, path) {
      for (let i = 0; i < count; i++) state.failures.push({ status: statusCode, path });
    },
  };
}
