// The Amazon Pay stand-in's IPNs: SNS envelopes signed like SNS's, built and delivered to the webhook URL.
import { randomUUID, sign } from 'node:crypto';
import type { Context } from 'hono';
import type { AmazonPayObjectType, AmazonPayStandinNotification } from './index';
import { chargeOf } from './objects';
import type { AmazonPayState } from './state';

function signSns(state: AmazonPayState, envelope: Record<string, string>, version: '1' | '2'): string {
  const keys =
    envelope.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = keys
    .filter((k) => envelope[k] !== undefined)
    .map((k) => `${k}\n${envelope[k]}\n`)
    .join('');
  return sign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256', Buffer.from(text, 'utf8'), state.pems.private).toString(
    'base64',
  );
}

export function snsMessage(
  state: AmazonPayState,
  fields: Record<string, string>,
  version: '1' | '2',
): { headers: Record<string, string>; rawBody: string } {
  const envelope: Record<string, string> = {
    ...fields,
    SignatureVersion: version,
    Signature: '',
    SigningCertURL: `${state.snsOrigin}/sns/SimpleNotificationService-${state.certId}.pem`,
  };
  envelope.Signature = signSns(state, envelope, version);
  if (envelope.Type === 'Notification') {
    envelope.UnsubscribeURL = `${state.snsOrigin}/sns/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(state.subscriptionArn)}`;
  }
  return {
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': envelope.Type!,
      'x-amz-sns-message-id': envelope.MessageId!,
      'x-amz-sns-topic-arn': state.topicArn,
      'x-amz-sns-subscription-arn': state.subscriptionArn,
      'user-agent': 'Amazon Simple Notification Service Agent',
    },
    rawBody: JSON.stringify(envelope, null, 2),
  };
}

function chargePermissionIdOf(state: AmazonPayState, objectType: AmazonPayObjectType, objectId: string): string {
  switch (objectType) {
    case 'CHARGE':
      return chargeOf(state, objectId).chargePermissionId;
    case 'REFUND':
      return chargeOf(state, state.refunds.get(objectId)?.chargeId ?? '').chargePermissionId;
    case 'CHARGEBACK':
      return chargeOf(state, state.disputes.get(objectId)?.chargeId ?? '').chargePermissionId;
    case 'CHARGE_PERMISSION':
      return objectId;
  }
}

export function buildNotification(
  state: AmazonPayState,
  input: { objectType: AmazonPayObjectType; objectId: string; timestamp?: Date; signatureVersion?: '1' | '2' },
) {
  const chargePermissionId = chargePermissionIdOf(state, input.objectType, input.objectId);
  const environment = chargePermissionId.startsWith('P') ? 'Live' : 'Sandbox';
  const message = JSON.stringify({
    ReleaseEnvironment: environment,
    MerchantID: state.merchantId,
    ObjectType: input.objectType,
    ObjectId: input.objectId,
    ChargePermissionId: chargePermissionId,
    NotificationType: 'STATE_CHANGE',
    NotificationId: randomUUID(),
    NotificationVersion: 'V2',
  });
  return snsMessage(
    state,
    {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: state.topicArn,
      Message: message,
      Timestamp: (input.timestamp ?? new Date()).toISOString(),
    },
    input.signatureVersion ?? state.snsVersion,
  );
}

export async function post(
  state: AmazonPayState,
  built: { headers: Record<string, string>; rawBody: string },
): Promise<AmazonPayStandinNotification> {
  const record: AmazonPayStandinNotification = { ...built, deliveredStatus: null };
  state.notifications.push(record);
  if (state.options.webhookUrl) {
    try {
      const response = await fetch(state.options.webhookUrl, {
        method: 'POST',
        headers: built.headers,
        body: built.rawBody,
        signal: AbortSignal.timeout(10_000),
      });
      record.deliveredStatus = response.status;
      await response.body?.cancel();
    } catch {
      record.deliveredStatus = null;
    }
  }
  return record;
}

/** Builds and sends the IPN of an object's state change. */
export function sendNotification(
  state: AmazonPayState,
  objectType: AmazonPayObjectType,
  objectId: string,
): Promise<AmazonPayStandinNotification> {
  return post(state, buildNotification(state, { objectType, objectId }));
}

/** Sends an IPN without holding up the API answer that caused it; close() waits for it. */
export function deliverLater(state: AmazonPayState, objectType: AmazonPayObjectType, objectId: string): void {
  const p = sendNotification(state, objectType, objectId).finally(() => state.inFlight.delete(p));
  state.inFlight.add(p);
}

/** The :id of a route (handlers are registered from a table, so the path is not typed). */
export function idParam(c: Context): string {
  return c.req.param('id') ?? '';
}
