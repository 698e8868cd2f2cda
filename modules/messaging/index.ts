// The messaging module's door: mail and SMS to members, through the outbox. Callers queue a
// rendered message in their own transaction (queueMail, queueSms); the `messaging.deliver` job
// sends it with retries; /dev/outbox shows what was queued. The real transports (SMTP, Twilio) are
// behind the second door `#modules/messaging/transports`, so queueing never loads their SDKs.
export {
  type MailTemplate,
  type SmsTemplate,
  type SiteIdentity,
  type RenderedMail,
  MAIL_TEMPLATES,
  SMS_TEMPLATES,
  MAIL_TEMPLATE_VARS,
  SMS_TEMPLATE_VARS,
  renderMail,
  renderSms,
} from './templates';
export {
  queueMail,
  queueSms,
  deliverDueMessages,
  clearOldMessageBodies,
  recentMessages,
  recordDeliveryStatus,
  retryDelaySeconds,
  isMailRecipient,
  isSmsRecipient,
  DeliveryError,
  OUTBOX_CHANNEL,
  MESSAGE_MAX_ATTEMPTS,
  MESSAGE_LEASE_SECONDS,
  type Mailer,
  type SmsProvider,
  type MessageTransports,
  type DeliveryReport,
  type OutboxEntry,
} from './outbox';
export { forgetMessagesTo, forgetSentMessagesOf, forgottenRecipientOf } from './forget';
export { outboxBacklog, OUTBOX_BACKLOG_CAP, type OutboxBacklog } from './backlog';
export type { MessageChannel, MessageStatus } from './schema';
export { messagingSettings } from './settings';
