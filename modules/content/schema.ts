// Built-in content store: editorial pages, special pages, banners and notices, in Prismic's shape.
// content_documents is the served snapshot (the published version's uid, tags and data); every edit
// of a page, special page or notice is a row of the append-only content_versions (decision 040).
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, jsonb, uniqueIndex, integer, primaryKey, index } from 'drizzle-orm/pg-core';

export const contentTypes = ['page', 'special', 'banner', 'notice'] as const;
export type ContentType = (typeof contentTypes)[number];

export const contentDocuments = pgTable(
  'content_documents',
  {
    id: text('id').primaryKey(),
    type: text('type', { enum: contentTypes }).notNull(),
    /** The URL key: /{uid} for pages and special pages. */
    uid: text('uid').notNull(),
    lang: text('lang').notNull().default('ja-jp'),
    tags: text('tags').array().notNull().default([]),
    /** Title, rich text body and fields; rendered by React (never as raw HTML). */
    data: jsonb('data').notNull(),
    /** Served iff set and <= now; uid, tags and data then hold published_version. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The newest version in content_versions (banners, edited by their own console, stay at 1). */
    currentVersion: integer('current_version').notNull().default(1),
    /** The version the snapshot holds; null while the document was never published. */
    publishedVersion: integer('published_version'),
    /** A publication booked for later (the job content.publish-scheduled carries it out). */
    scheduledVersion: integer('scheduled_version'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('content_documents_type_uid_idx').on(t.type, t.uid, t.lang),
    index('content_documents_scheduled_idx')
      .on(t.scheduledAt)
      .where(sql`${t.scheduledAt} is not null`),
  ],
);

/** Every saved version of a document, never changed: the history, the diff and the rollback read it. */
export const contentVersions = pgTable(
  'content_versions',
  {
    documentId: text('document_id')
      .notNull()
      .references(() => contentDocuments.id),
    version: integer('version').notNull(),
    type: text('type', { enum: contentTypes }).notNull(),
    uid: text('uid').notNull(),
    lang: text('lang').notNull(),
    tags: text('tags').array().notNull(),
    data: jsonb('data').notNull(),
    /** The staff member who saved it; null for the system (seeded pages, the scheduler). */
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    note: text('note'),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.version] })],
);
