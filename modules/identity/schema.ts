// Identity tables, in the shape better-auth expects (user, session, account, verification, rateLimit).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** ニックネーム, shown publicly in rankings (masked elsewhere). */
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    /** 'user' or 'admin' (staff); better-auth's admin plugin owns it. */
    role: text('role').notNull().default('user'),
    banned: boolean('banned').default(false),
    banReason: text('ban_reason'),
    banExpires: timestamp('ban_expires', { withTimezone: true }),
    /** 生年月日, YYYY-MM-DD (strict: a real date); null until the member gives it. */
    birthday: text('birthday'),
    /** better-auth's twoFactor plugin: true once TOTP is set up and confirmed (two-factor.server.ts). */
    twoFactorEnabled: boolean('two_factor_enabled').default(false),
    /** 退会: set when the member deleted the account; the row stays as an anonymised tombstone (account-deletion.server.ts). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** E.164 (+819012345678), set by better-auth's phoneNumber plugin once an SMS code proved it; one member per number. */
    phoneNumber: text('phone_number').unique('users_phone_number_unique'),
    phoneNumberVerified: boolean('phone_number_verified').notNull().default(false),
    /**
     * 当選履歴 (the public winners feed): true shows the nickname, false (the default) shows 匿名.
     * Off by default: a win is about money, and a member opts in to being named (decision 036).
     */
    winnersFeedNamed: boolean('winners_feed_named').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    // The operators' member search (member-console.ts): the start of a nickname, case-insensitive, and
    // the newest members first. Exact id, email and phone number use their unique indexes.
    index('users_name_prefix_idx').using('btree', sql`lower(${t.name}) text_pattern_ops`, t.id),
    index('users_created_at_idx').on(t.createdAt, t.id),
    // The member number (会員ID) staff type from a member's screen: identity_member_code() is the
    // number's derivation in SQL (member-code.ts; created by migration 0039 before this index).
    index('users_member_code_idx').using('btree', sql`identity_member_code(${t.id})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    impersonatedBy: text('impersonated_by'),
    ...timestamps,
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('accounts_user_id_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/** Sign-in and code attempts, counted in the database so every server instance shares the limit. */
export const rateLimits = pgTable('rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

/**
 * better-auth's twoFactor plugin (model `twoFactor`): the member's TOTP secret and backup codes, both
 * encrypted with AUTH_SECRET; `verified` turns true when the first code confirms the setup.
 */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factors_user_id_idx').on(t.userId)],
);

/** New members per Japan-time day, folded by the dashboard job from `users` (docs/decisions/028). */
export const memberDailyRollups = pgTable('member_daily_rollups', {
  day: date('day', { mode: 'string' }).primaryKey(),
  newMembers: integer('new_members').notNull(),
});

/** How far `users` has been folded into member_daily_rollups (one row, name 'members'). */
export const memberRollupMarks = pgTable('member_rollup_marks', {
  name: text('name').primaryKey(),
  foldedTo: timestamp('folded_to', { withTimezone: true }).notNull(),
});

export const sponsorshipKinds = ['streamer', 'affiliate'] as const;
export type SponsorshipKind = (typeof sponsorshipKinds)[number];

/**
 * Sponsored accounts (景品表示法's ステマ rule, in force since 2023-10-01; decision 083): a streamer or an
 * affiliate the shop has a deal with, from when to when. What they do while sponsored — a win in the winners
 * feed, a line in a ranking, a share text — carries 「PR」. At most one open row a member; never deleted (a
 * past sponsorship still labels what was done during it).
 */
export const memberSponsorships = pgTable(
  'member_sponsorships',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: text('member_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: sponsorshipKinds }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('member_sponsorships_member_idx').on(t.memberId, t.startedAt),
    uniqueIndex('member_sponsorships_one_open_idx')
      .on(t.memberId)
      .where(sql`${t.endedAt} is null`),
  ],
);

import { appealOutcomes, restrictionCategories, restrictionKinds } from './restriction-words';
export {
  appealOutcomes,
  restrictionCategories,
  restrictionKinds,
  type AppealOutcome,
  type RestrictionCategory,
  type RestrictionKind,
} from './restriction-words';

/**
 * What a member is told about an operator's hold or ban (issue 34 item 6, decision 084): its reason
 * category (the account policy's words), when it began and ends, and the appeal's outcome with the
 * operator's statement to the member. The staff's own reason stays in the staff note / `ban_reason`.
 * `link_hash` is the SHA-256 of the token in the statement link mailed to a banned member (who has no
 * session): the link shows the statement and takes an appeal, nothing else. At most one open row a kind.
 */
export const memberRestrictions = pgTable(
  'member_restrictions',
  {
    id: uuid('id').primaryKey(),
    memberId: text('member_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: restrictionKinds }).notNull(),
    category: text('category', { enum: restrictionCategories }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    startedBy: text('started_by').notNull(),
    /** A ban's last moment (null: until lifted; a hold has none). */
    until: timestamp('until', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: text('ended_by'),
    linkHash: text('link_hash'),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    /** The appeal (an inquiry of category appeal) the member sent, once. */
    appealInquiryId: uuid('appeal_inquiry_id'),
    appealedAt: timestamp('appealed_at', { withTimezone: true }),
    appealOutcome: text('appeal_outcome', { enum: appealOutcomes }),
    appealStatement: text('appeal_statement'),
    appealDecidedAt: timestamp('appeal_decided_at', { withTimezone: true }),
    appealDecidedBy: text('appeal_decided_by'),
  },
  (t) => [
    index('member_restrictions_member_idx').on(t.memberId, t.startedAt),
    uniqueIndex('member_restrictions_one_open_idx')
      .on(t.memberId, t.kind)
      .where(sql`${t.endedAt} is null`),
    uniqueIndex('member_restrictions_link_idx').on(t.linkHash),
    check(
      'member_restrictions_appeal_decided',
      sql`(${t.appealOutcome} is null) = (${t.appealDecidedAt} is null) and (${t.appealOutcome} is null or ${t.appealInquiryId} is not null)`,
    ),
  ],
);
