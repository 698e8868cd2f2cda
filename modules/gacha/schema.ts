// Catalogue tables: genres and packs (gacha). Lots, tiers and draws arrive with the draw issue.
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const genres = pgTable('genres', {
  /** URL id, lower-case ASCII: /gacha/{id}. */
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Old or alternative ids that redirect to this genre (the redirect-gacha guard). */
  aliases: text('aliases').array().notNull().default([]),
  iconPath: text('icon_path'),
  sortOrder: integer('sort_order').notNull().default(0),
  visible: boolean('visible').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const gachaStatuses = ['draft', 'scheduled', 'on_sale', 'sold_out', 'ended'] as const;
export type GachaStatus = (typeof gachaStatuses)[number];

export const gachas = pgTable(
  'gachas',
  {
    id: text('id').primaryKey(),
    genreId: text('genre_id')
      .notNull()
      .references(() => genres.id),
    title: text('title').notNull(),
    imagePath: text('image_path').notNull(),
    /** Coins per draw: an integer, never a float. */
    pricePerDraw: integer('price_per_draw').notNull(),
    totalLots: integer('total_lots').notNull(),
    remainingLots: integer('remaining_lots').notNull(),
    status: text('status', { enum: gachaStatuses }).notNull().default('draft'),
    tags: text('tags').array().notNull().default([]),
    sortOrder: integer('sort_order').notNull().default(0),
    saleStartsAt: timestamp('sale_starts_at', { withTimezone: true }),
    saleEndsAt: timestamp('sale_ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gachas_genre_idx').on(t.genreId, t.status)],
);
