// The invitation module's tables (docs/decisions/038): each member's personal code, one invitation per
// invitee (who invited them, how far they have come, and how it was settled), and where the settle job's
// purchase feed stopped.
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A member's personal invitation code, made on first need; the row is also the inviter's lock for the cap. */
export const invitationCodes = pgTable(
  'invitation_codes',
  {
    memberId: text('member_id').primaryKey(),
    /** 8 characters of an alphabet without look-alikes (no 0/O, 1/I). */
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invitation_codes_code_idx').on(t.code)],
);

export const invitationOutcomes = ['rewarded', 'capped', 'refused'] as const;
export type InvitationOutcome = (typeof invitationOutcomes)[number];

export const invitationRefusals = ['self', 'shared_phone', 'shared_device', 'ineligible'] as const;
export type InvitationRefusal = (typeof invitationRefusals)[number];

/**
 * One invitation per invitee (unique): attached once at sign-up. Settled once, when the invitee has
 * verified a phone number and made a first purchase: rewarded (both get coins through the mailbox),
 * capped (the inviter's month was full) or refused (self-invitation, shared phone or device).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    inviterId: text('inviter_id').notNull(),
    inviteeId: text('invitee_id').notNull(),
    code: text('code').notNull(),
    attachedAt: timestamp('attached_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the settle job first saw the invitee's phone verified. */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    /** When the invitee's first purchase was credited. */
    firstPurchaseAt: timestamp('first_purchase_at', { withTimezone: true }),
    /** Keyed hash of the invitee's verified phone (never the number): shared phones among one inviter's invitees. */
    phoneHash: text('phone_hash'),
    outcome: text('outcome', { enum: invitationOutcomes }),
    refusal: text('refusal', { enum: invitationRefusals }),
    /** Coins each member received (rewarded only). */
    rewardCoins: integer('reward_coins'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The last time the settle job looked at this pending invitation (the sweep takes the oldest first). */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invitations_invitee_idx').on(t.inviteeId),
    // The inviter's list, newest first.
    index('invitations_inviter_idx').on(t.inviterId, t.attachedAt),
    // The cap: rewarded invitations of an inviter in a month.
    index('invitations_inviter_rewarded_idx')
      .on(t.inviterId, t.settledAt)
      .where(sql`${t.outcome} = 'rewarded'`),
    // The sweep: pending invitations, least recently checked first.
    index('invitations_pending_idx')
      .on(t.checkedAt)
      .where(sql`${t.outcome} is null`),
  ],
);

/** Where the settle job's feed of credited purchases stopped (one row, name 'purchases'). */
export const invitationWatermarks = pgTable('invitation_watermarks', {
  name: text('name').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  id: text('id').notNull().default(''),
});
