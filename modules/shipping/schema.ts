// The shipping module's tables: the members' address books (every address field sealed in one value).
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * One address of a member's book (at most MAX_ADDRESSES_PER_MEMBER). No column holds an address
 * field: `sealed` is the whole address as JSON, AES-256-GCM under `key_id`, bound to the member and
 * the row id (docs/decisions/019). `key_id` repeats the key named in `sealed`, so a rotation finds
 * the rows still under an older key without opening them.
 */
export const memberAddresses = pgTable(
  'member_addresses',
  {
    id: uuid('id').primaryKey(),
    memberId: text('member_id').notNull(),
    sealed: text('sealed').notNull(),
    keyId: text('key_id').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('member_addresses_member_idx').on(t.memberId, t.createdAt),
    // One usual address per member at most.
    uniqueIndex('member_addresses_one_default_idx')
      .on(t.memberId)
      .where(sql`${t.isDefault}`),
    index('member_addresses_key_idx').on(t.keyId),
  ],
);
