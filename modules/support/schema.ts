// The support module's tables: inquiries from the contact form (member or visitor), each inquiry's
// thread (the inquirer's messages and the staff's answers), the images attached to them (files under
// DATA_DIR, re-encoded; the row names the file), and the operators' reply templates.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const inquiryCategories = ['account', 'payment', 'draw', 'prize', 'shipping', 'appeal', 'bug', 'other'] as const;
export type InquiryCategory = (typeof inquiryCategories)[number];

export const inquiryStatuses = ['new', 'in_progress', 'waiting', 'closed'] as const;
export type InquiryStatus = (typeof inquiryStatuses)[number];

/** What an inquiry may be about, chosen from the member's own (checked against its owner when posted). */
export const inquiryRelatedKinds = ['order', 'draw', 'shipping_request'] as const;
export type InquiryRelatedKind = (typeof inquiryRelatedKinds)[number];

/**
 * One inquiry. `reference` is what the inquirer quotes (Q-YYYYMMDD-XXXX, JST date); `member_id` is
 * null for a visitor; `email` is where answers go (as typed; a member's is prefilled).
 */
export const inquiries = pgTable(
  'inquiries',
  {
    id: uuid('id').primaryKey(),
    reference: text('reference').notNull(),
    memberId: text('member_id'),
    email: text('email').notNull(),
    category: text('category', { enum: inquiryCategories }).notNull(),
    relatedKind: text('related_kind', { enum: inquiryRelatedKinds }),
    relatedId: text('related_id'),
    subject: text('subject').notNull(),
    status: text('status', { enum: inquiryStatuses }).notNull().default('new'),
    /** The staff member answering it (a member id of role staff or admin). */
    assigneeId: text('assignee_id'),
    /** The operators' note, never shown to the inquirer. */
    internalNote: text('internal_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inquiries_reference_idx').on(t.reference),
    // The desk's list: by status, newest first.
    index('inquiries_status_idx').on(t.status, t.createdAt),
    index('inquiries_member_idx').on(t.memberId, t.createdAt),
    index('inquiries_email_idx').on(sql`lower(${t.email})`),
    // The inquiries about one order, draw or shipping request (the shipping desk shows the open ones).
    index('inquiries_related_idx').on(t.relatedKind, t.relatedId),
    check(
      'inquiries_related_pair',
      sql`(${t.relatedKind} is null) = (${t.relatedId} is null) and (${t.relatedKind} is null or ${t.memberId} is not null)`,
    ),
  ],
);

export const inquiryAuthors = ['inquirer', 'staff'] as const;
export type InquiryAuthor = (typeof inquiryAuthors)[number];

/** The thread: the inquirer's first message, then each answer (staff) in order. */
export const inquiryMessages = pgTable(
  'inquiry_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    inquiryId: uuid('inquiry_id')
      .notNull()
      .references(() => inquiries.id),
    author: text('author', { enum: inquiryAuthors }).notNull(),
    /** The staff member who answered (null for the inquirer). */
    staffId: text('staff_id'),
    body: text('body').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('inquiry_messages_inquiry_idx').on(t.inquiryId, t.at),
    check('inquiry_messages_staff', sql`(${t.author} = 'staff') = (${t.staffId} is not null)`),
  ],
);

/**
 * An image attached to a message: the re-encoded file (WebP, metadata stripped) and its thumbnail live
 * under the attachments folder as `<storage_key>.webp` and `<storage_key>-thumb.webp`.
 */
export const inquiryAttachments = pgTable(
  'inquiry_attachments',
  {
    id: uuid('id').primaryKey(),
    inquiryId: uuid('inquiry_id')
      .notNull()
      .references(() => inquiries.id),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => inquiryMessages.id),
    /** `YYYY/MM/<id>`: the file's place under the attachments folder (never a name the sender chose). */
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('inquiry_attachments_inquiry_idx').on(t.inquiryId),
    uniqueIndex('inquiry_attachments_storage_idx').on(t.storageKey),
  ],
);

/** The operators' reply templates (inserted into an answer, then edited). */
export const inquiryReplyTemplates = pgTable('inquiry_reply_templates', {
  id: uuid('id').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
