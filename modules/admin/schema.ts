// The admin module's tables: what each staff member may do, invitations to join the staff, and the
// append-only audit log every admin action writes in its own transaction. Private to the module.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** A staff member's permissions (role 'staff'; role 'admin' holds every permission without rows). */
export const staffPermissions = pgTable(
  'staff_permissions',
  {
    memberId: text('member_id').notNull(),
    permission: text('permission').notNull(),
    grantedBy: text('granted_by').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.permission] })],
);

/** An invitation mailed to a future staff member: its token is stored only as a SHA-256 hash. */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    role: text('role').$type<'admin' | 'staff'>().notNull(),
    permissions: text('permissions').array().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('staff_invitations_email_idx').on(t.email)],
);

/**
 * One row per admin action, written in the action's transaction (a rolled-back action leaves none).
 * Append-only: UPDATE, DELETE and TRUNCATE are refused by triggers (sql/audit_append_only.sql) and,
 * with separated database roles, by the shop role's rights.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The member who acted; null for the operators' command line (then `actor_label` says who). */
    actorId: text('actor_id'),
    /** The actor as shown: the staff member's email, or `cli:<user>@<host>`. */
    actorLabel: text('actor_label').notNull(),
    permission: text('permission').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    address: text('address'),
  },
  (t) => [
    index('admin_audit_log_at_idx').on(t.at),
    index('admin_audit_log_actor_idx').on(t.actorId, t.at),
    index('admin_audit_log_target_idx').on(t.targetType, t.targetId, t.at),
    index('admin_audit_log_action_idx').on(t.action, t.at),
  ],
);

/** Staff notes on a member (never shown to the member): who wrote what, when. Added, never edited. */
export const memberNotes = pgTable(
  'member_notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: text('member_id').notNull(),
    authorId: text('author_id'),
    authorLabel: text('author_label').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('member_notes_member_idx').on(t.memberId, t.id)],
);

export const coinAdjustmentStatuses = ['pending', 'applied', 'rejected'] as const;
export type CoinAdjustmentStatus = (typeof coinAdjustmentStatuses)[number];

/**
 * An operator's coin adjustment (decision 026): applied at once up to the approval threshold, else
 * pending until another admin approves (then applied, once: the row is locked and the ledger key is
 * `adjust:<id>`) or rejects it. `request_key` is the form's key: a double submit makes one row.
 */
export const coinAdjustments = pgTable(
  'coin_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestKey: text('request_key').notNull().unique(),
    memberId: text('member_id').notNull(),
    kind: text('kind', { enum: ['paid', 'free'] }).notNull(),
    /** Signed from the member's side: + credits, − debits. */
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: coinAdjustmentStatuses }).notNull(),
    requestedBy: text('requested_by'),
    requestedLabel: text('requested_label').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by'),
    decidedLabel: text('decided_label'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
  },
  (t) => [
    index('coin_adjustments_member_idx').on(t.memberId, t.requestedAt),
    index('coin_adjustments_pending_idx')
      .on(t.requestedAt)
      .where(sql`${t.status} = 'pending'`),
    check('coin_adjustments_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

export const staffRoleRequestKinds = ['invite', 'access', 'revoke'] as const;
export type StaffRoleRequestKind = (typeof staffRoleRequestKinds)[number];
export const staffRoleRequestStatuses = ['pending', 'applied', 'rejected'] as const;
export type StaffRoleRequestStatus = (typeof staffRoleRequestStatuses)[number];

/**
 * A change that makes, promotes, demotes or removes an admin (decision 050): it waits here until an
 * admin other than the requester approves it (then it is applied, once: the row is locked) or rejects
 * it. `subject` is the member id, or the invited address for an invitation; one pending request per
 * subject. `from_role` is the target's role when asked: a target changed since is not applied.
 */
export const staffRoleRequests = pgTable(
  'staff_role_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: staffRoleRequestKinds }).notNull(),
    subject: text('subject').notNull(),
    memberId: text('member_id'),
    email: text('email'),
    fromRole: text('from_role'),
    role: text('role', { enum: ['admin', 'staff', 'user'] }).notNull(),
    permissions: text('permissions').array().notNull(),
    status: text('status', { enum: staffRoleRequestStatuses }).notNull(),
    requestedBy: text('requested_by'),
    requestedLabel: text('requested_label').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by'),
    decidedLabel: text('decided_label'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
  },
  (t) => [
    uniqueIndex('staff_role_requests_one_pending_idx')
      .on(t.subject)
      .where(sql`${t.status} = 'pending'`),
    index('staff_role_requests_pending_idx')
      .on(t.requestedAt)
      .where(sql`${t.status} = 'pending'`),
    check(
      'staff_role_requests_subject_named',
      sql`(${t.kind} = 'invite' and ${t.email} is not null) or (${t.kind} <> 'invite' and ${t.memberId} is not null)`,
    ),
  ],
);

export const mailSendStatuses = ['pending', 'sent', 'rejected'] as const;
export type MailSendStatus = (typeof mailSendStatuses)[number];

/**
 * Every operator mail confirmed on /admin/mail (decision 052): the composed mail, the recipients counted
 * when it was confirmed and the present's most cost (recipients × coins per member). Up to
 * MAIL_PRESENT_APPROVAL_THRESHOLD_COINS it is sent at once (`sent`, `mail_id` set); above it, it waits
 * as `pending`, invisible to members, until another admin approves (then the mail is written, once: the
 * row is locked) or rejects it. `request_key` is the form's key: a double submit sends once.
 */
export const mailSendRequests = pgTable(
  'mail_send_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestKey: text('request_key').notNull().unique(),
    /** The composed mail (mailbox's MailDraft, dates as ISO strings). */
    draft: jsonb('draft').notNull(),
    subject: text('subject').notNull(),
    coinsPerMember: integer('coins_per_member').notNull(),
    recipients: integer('recipients').notNull(),
    totalCoins: bigint('total_coins', { mode: 'number' }).notNull(),
    status: text('status', { enum: mailSendStatuses }).notNull(),
    requestedBy: text('requested_by'),
    requestedLabel: text('requested_label').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by'),
    decidedLabel: text('decided_label'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    mailId: integer('mail_id'),
  },
  (t) => [
    index('mail_send_requests_pending_idx')
      .on(t.requestedAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
