// The risk module's tables: the fingerprints the signals job keeps (keyed hashes of a device, a
// shipping address, a phone number; never the plain value), its watermarks, and the fraud signals
// the operators decide (docs/decisions/029).
import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const fingerprintKinds = ['device', 'address', 'phone'] as const;
export type FingerprintKind = (typeof fingerprintKinds)[number];

/**
 * One member seen with one fingerprint: HMAC-SHA-256 (key derived from AUTH_SECRET) of the normalised
 * value. The same key under several members is what the shared-* signals count.
 */
export const riskFingerprints = pgTable(
  'risk_fingerprints',
  {
    kind: text('kind', { enum: fingerprintKinds }).notNull(),
    keyHash: text('key_hash').notNull(),
    memberId: text('member_id').notNull(),
    /** What is safe to show staff about the value (a device's browser and address; nothing for addresses and phones). */
    label: text('label'),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.keyHash, t.memberId] }),
    index('risk_fingerprints_member_idx').on(t.memberId),
  ],
);

/** Where each feed of the job stopped: (at, id) of the last row read. */
export const riskWatermarks = pgTable('risk_watermarks', {
  name: text('name').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  id: text('id').notNull().default(''),
});

export const signalKinds = [
  'shared_device',
  'shared_address',
  'shared_phone',
  'velocity_draws',
  'velocity_spend',
  'chargeback',
] as const;
export type SignalKind = (typeof signalKinds)[number];

export const signalStatuses = ['open', 'cleared', 'held', 'banned'] as const;
export type SignalStatus = (typeof signalStatuses)[number];

/**
 * A fraud signal about one member: unique per (kind, member, key), so the job raises it once and a
 * re-run only refreshes its evidence and last_seen. `key` is the shared fingerprint, the JST day of a
 * velocity, or the charged-back order. The decision (cleared, held, banned) is the operator's.
 */
export const fraudSignals = pgTable(
  'fraud_signals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: signalKinds }).notNull(),
    memberId: text('member_id').notNull(),
    key: text('key').notNull(),
    evidence: jsonb('evidence').notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    status: text('status', { enum: signalStatuses }).notNull().default('open'),
    decidedBy: text('decided_by'),
    decidedLabel: text('decided_label'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
  },
  (t) => [
    uniqueIndex('fraud_signals_kind_member_key_idx').on(t.kind, t.memberId, t.key),
    // The operators' list: by status, newest first (the home page counts the open ones).
    index('fraud_signals_status_idx').on(t.status, t.lastSeen),
    index('fraud_signals_member_idx').on(t.memberId, t.lastSeen),
    index('fraud_signals_open_idx')
      .on(t.lastSeen)
      .where(sql`${t.status} = 'open'`),
  ],
);
