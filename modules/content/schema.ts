// Built-in content store: editorial pages, special pages, banners and notices, in Prismic's shape.
import { pgTable, text, timestamp, jsonb, uniqueIndex } from 'drizzle-orm/pg-core';

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
    publishedAt: timestamp('published_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('content_documents_type_uid_idx').on(t.type, t.uid, t.lang)],
);
