// Catalogue tables: genres, packs (gacha), their prize tiers, the lots fixed at publication and the
// secret seed behind their order. Draws and prizes are the draw module's (modules/draw/schema.ts).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const genres = pgTable(
  'genres',
  {
    /** URL id, lower-case ASCII: /gacha/{id}. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Old or alternative ids that redirect to this genre (the redirect-gacha guard). */
    aliases: text('aliases').array().notNull().default([]),
    iconPath: text('icon_path'),
    sortOrder: integer('sort_order').notNull().default(0),
    visible: boolean('visible').notNull().default(true),
    /** Optional visibility window (docs/decisions/031): shown while starts_at <= now < ends_at; null edges are open. */
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('genres_window', sql`${t.endsAt} is null or ${t.startsAt} is null or ${t.endsAt} > ${t.startsAt}`)],
);

export const gachaStatuses = ['draft', 'scheduled', 'on_sale', 'sold_out', 'ended'] as const;
export type GachaStatus = (typeof gachaStatuses)[number];

/**
 * How a pack's lots are decided (decision 081): `sequence` — shuffled by a secret seed at publication and
 * revealed at the end (decisions 005, 027); `beacon` — a multiset committed at publication, each draw settled
 * after its acceptance by a drand round that did not exist when it was accepted.
 */
export const drawModes = ['sequence', 'beacon'] as const;
export type DrawMode = (typeof drawModes)[number];

export const gachas = pgTable(
  'gachas',
  {
    id: text('id').primaryKey(),
    /** A small number naming the pack's lot-position sequence (gacha_pos_<no>); ids are too long for it. */
    no: integer('no').generatedAlwaysAsIdentity().notNull().unique(),
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
    description: text('description').notNull().default(''),
    /** Draw counts offered (1, 10, 100 by default). */
    drawOptions: integer('draw_options')
      .array()
      .notNull()
      .default(sql`'{1,10,100}'::int[]`),
    /** At most this many lots per member, or no limit. */
    perMemberLimit: integer('per_member_limit'),
    /** Minimum member rank (0 = レギュラー … 5 = ダイヤモンド), or none. */
    minRank: smallint('min_rank'),
    /** SHA-256 commitment over the terms, tiers, seed and lot order, published with the pack. */
    commitment: text('commitment'),
    committedAt: timestamp('committed_at', { withTimezone: true }),
    soldOutAt: timestamp('sold_out_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** When the seed and the anonymised draw log were made public (sold out or ended). */
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    /**
     * The smallest キリ番 (lot number, counted in sale order) not yet awarded, or null when none is left
     * (decision 027). Read with the draw's terms, so draws far from a キリ番 pay nothing for the feature;
     * moved on only by the draw that awards it, holding the pack row.
     */
    kiribanNext: integer('kiriban_next'),
    /**
     * Whether a tier of the pack is a 個人キリ番賞 or a ピタリ賞 (decision 088): read with the draw's terms, so a
     * pack without them pays nothing for either. Fixed at creation, like the tiers.
     */
    personalKiriban: boolean('personal_kiriban').notNull().default(false),
    pitari: boolean('pitari').notNull().default(false),
    /** Whether a tier of the pack is a 天井賞 (decision 089): read with the draw's terms, like the two above. */
    ceiling: boolean('ceiling').notNull().default(false),
    drawMode: text('draw_mode', { enum: drawModes }).notNull().default('sequence'),
    /**
     * A hot release opens through a waiting room (decision 087): members who arrive before the sale starts are
     * put in a server-drawn random order at the start, later ones queue behind; each in turn gets a window of
     * `waitingRoomWindowSeconds` to draw up to `perMemberLimit`, `waitingRoomBatch` windows open at a time.
     * Read with the draw's terms, so a pack without one pays nothing for the feature.
     */
    waitingRoom: boolean('waiting_room').notNull().default(false),
    waitingRoomWindowSeconds: integer('waiting_room_window_seconds').notNull().default(180),
    waitingRoomBatch: integer('waiting_room_batch').notNull().default(50),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('gachas_genre_idx').on(t.genreId, t.status),
    check('gachas_waiting_room_window', sql`${t.waitingRoomWindowSeconds} between 30 and 3600`),
    check('gachas_waiting_room_batch', sql`${t.waitingRoomBatch} between 1 and 10000`),
    check('gachas_draw_mode', sql`${t.drawMode} in ('sequence', 'beacon')`),
    check('gachas_price_positive', sql`${t.pricePerDraw} > 0`),
    check('gachas_remaining_range', sql`${t.remainingLots} >= 0 and ${t.remainingLots} <= ${t.totalLots}`),
  ],
);

export const tierEffects = ['lastone', 'rainbow', 'gold', 'silver', 'normal'] as const;
export type TierEffect = (typeof tierEffects)[number];

/** A prize tier of a pack: S賞, A賞 …, and the ラストワン賞 (not a lot: the final lot's extra prize). */
export const gachaTiers = pgTable(
  'gacha_tiers',
  {
    id: text('id').primaryKey(),
    gachaId: text('gacha_id')
      .notNull()
      .references(() => gachas.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    /** 1 = the pack's best tier; the ラストワン賞 is 0. */
    rank: smallint('rank').notNull(),
    effect: text('effect', { enum: tierEffects }).notNull().default('normal'),
    cardName: text('card_name').notNull(),
    cardImagePath: text('card_image_path').notNull(),
    rarity: text('rarity'),
    cardGrade: text('card_grade'),
    cardSet: text('card_set'),
    cardNumber: text('card_number'),
    quantity: integer('quantity').notNull(),
    conversionValue: integer('conversion_value').notNull(),
    isLastOne: boolean('is_last_one').notNull().default(false),
    /**
     * A キリ番賞 (decision 027): the lot numbers (ascending; the Nth lot sold) whose draw wins this extra
     * prize, one each; quantity = their count. Null for every other tier. Not a lot, like the ラストワン賞.
     */
    kiribanAt: integer('kiriban_at').array(),
    /**
     * A 個人キリ番賞 (decision 088): a member's own lot numbers in the pack (ascending; 10 = their 10th lot) whose
     * draw wins this extra prize, once per member and number; quantity = the most it can give. Null otherwise.
     */
    personalKiribanAt: integer('personal_kiriban_at').array(),
    /** A ピタリ賞 (decision 088): the lot tier (id) whose last lot's draw wins this extra prize. Null otherwise. */
    pitariOf: text('pitari_of'),
    /**
     * A 天井賞 (decision 089): a member who draws `ceilingAfter` lots of the pack in a row without one of the
     * `ceilingOf` tiers (ids) wins this extra prize, from stock reserved for it (quantity = ⌊lots ÷ N⌋, the most it
     * can give). Null for every other tier.
     */
    ceilingAfter: integer('ceiling_after'),
    ceilingOf: text('ceiling_of').array(),
    /** The card's condition as the editor writes it (美品, 初期傷あり…): shown to members, not in the commitment. */
    cardCondition: text('card_condition'),
    /** What the shop paid for one card, in yen: the editor's margin; never shown to members, not in the commitment. */
    cardCostYen: integer('card_cost_yen'),
    /**
     * The physical card behind this tier, fixed when the pack is published (its stock reserved then).
     * Null: a pack published before stock existed — untracked, every stock step skips it.
     */
    stockCardId: uuid('stock_card_id').references(() => stockCards.id),
    /**
     * The grading certificate of a graded card (issue 33 item 8): the company that graded it (PSA, BGS,
     * ARS: the card grade's company) and the number printed on its slab, as printed. Both or neither;
     * shown on the pack page from publication. The editor requires them, with the photo below, for a
     * graded card worth CERTIFIED_PRIZE_MIN_COINS or more; a certificate names one card (quantity 1).
     */
    certificateCompany: text('certificate_company'),
    certificateNumber: text('certificate_number'),
    /**
     * The graded card's photo as uploaded, byte for byte (the card image above is its re-encoded copy):
     * the SHA-256 of those exact bytes (lower-case hex, computed by the server, never typed) and the site
     * path it is served from unchanged (/media/originals/<sha256>.<ext>). Both or neither.
     */
    cardPhotoSha256: text('card_photo_sha256'),
    cardPhotoOriginalPath: text('card_photo_original_path'),
  },
  (t) => [
    index('gacha_tiers_gacha_idx').on(t.gachaId, t.rank),
    index('gacha_tiers_stock_card_idx').on(t.stockCardId),
    check('gacha_tiers_quantity_positive', sql`${t.quantity} > 0`),
    check('gacha_tiers_value_nonnegative', sql`${t.conversionValue} >= 0`),
    check('gacha_tiers_certificate_whole', sql`(${t.certificateCompany} is null) = (${t.certificateNumber} is null)`),
    check('gacha_tiers_card_photo_whole', sql`(${t.cardPhotoSha256} is null) = (${t.cardPhotoOriginalPath} is null)`),
    check('gacha_tiers_card_photo_sha256', sql`${t.cardPhotoSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * The lots of a published pack, in their secret order (position 1..total). A lot is claimed by
 * setting draw_id and member_id once; it is never released. A beacon pack's lots are slots: no tier
 * until the draw that claimed one is settled (decision 081), then their tier once, never changed.
 */
export const gachaLots = pgTable(
  'gacha_lots',
  {
    gachaId: text('gacha_id').notNull(),
    position: integer('position').notNull(),
    tierId: text('tier_id'),
    drawId: uuid('draw_id'),
    memberId: text('member_id'),
  },
  (t) => [
    primaryKey({ columns: [t.gachaId, t.position] }),
    index('gacha_lots_unclaimed_idx')
      .on(t.gachaId, t.position)
      .where(sql`${t.drawId} is null`),
  ],
);

/**
 * A beacon pack's randomness source and receipt key as committed at publication (decision 081,
 * oripa-commitment-b1), and the shop's close margin that fixes which round a draw waits for.
 */
export const gachaBeaconTerms = pgTable('gacha_beacon_terms', {
  gachaId: text('gacha_id')
    .primaryKey()
    .references(() => gachas.id, { onDelete: 'cascade' }),
  chainHash: text('chain_hash').notNull(),
  scheme: text('scheme').notNull(),
  publicKey: text('public_key').notNull(),
  genesisTime: bigint('genesis_time', { mode: 'number' }).notNull(),
  period: integer('period').notNull(),
  /** The shop's Ed25519 public key for this pack's receipts (hex). */
  receiptKey: text('receipt_key').notNull(),
  /** A round closes this long before its time (BEACON_CLOSE_MARGIN_MS when published). */
  closeMarginMs: integer('close_margin_ms').notNull(),
});

/** The seed behind a pack's lot order (public once the pack is over) and the salt that makes the log's member pseudonyms (never published). */
export const gachaSecrets = pgTable('gacha_secrets', {
  gachaId: text('gacha_id')
    .primaryKey()
    .references(() => gachas.id, { onDelete: 'cascade' }),
  /** Null for a beacon pack (decision 081): no order exists, so nothing is secret but the salt. */
  seed: text('seed'),
  revealSalt: text('reveal_salt').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// ── Physical stock (docs/decisions/023) ──────────────────────────────────────────────────────────

/**
 * A physical card the shop holds, one row per identity (name, set, number, grade; normalised in
 * `identity_key`). `on_hand` counts the cards in the shop; `reserved` those promised to somebody (the
 * unclaimed lots of live packs, prizes not yet shipped nor converted, substitutes assigned).
 * Available = on_hand − reserved. Counters move only with a row of stock_movements.
 */
export const stockCards = pgTable(
  'stock_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cardName: text('card_name').notNull(),
    cardSet: text('card_set'),
    cardNumber: text('card_number'),
    cardGrade: text('card_grade'),
    /** NFKC, trimmed, spaces collapsed, lower-case name|set|number|grade (stockIdentityKey). */
    identityKey: text('identity_key').notNull(),
    /** Reference value in coins: a substitute must be worth at least the prize's conversion value. */
    valueCoins: integer('value_coins').notNull(),
    onHand: integer('on_hand').notNull().default(0),
    reserved: integer('reserved').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('stock_cards_identity_idx').on(t.identityKey),
    index('stock_cards_value_idx').on(t.valueCoins),
    check('stock_cards_value_nonnegative', sql`${t.valueCoins} >= 0`),
    check('stock_cards_on_hand_nonnegative', sql`${t.onHand} >= 0`),
    check('stock_cards_reserved_range', sql`${t.reserved} >= 0 and ${t.reserved} <= ${t.onHand}`),
  ],
);

export const stockMovementKinds = [
  'received',
  'adjusted',
  'reserved',
  'released',
  'shipped',
  'returned',
  'missing',
  'damaged',
  'substitute',
] as const;
export type StockMovementKind = (typeof stockMovementKinds)[number];

/** Every change of a stock card's counters, append-only (sql/stock.sql): the counters are their sums. */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stockCardId: uuid('stock_card_id')
      .notNull()
      .references(() => stockCards.id),
    kind: text('kind', { enum: stockMovementKinds }).notNull(),
    onHandDelta: integer('on_hand_delta').notNull(),
    reservedDelta: integer('reserved_delta').notNull(),
    gachaId: text('gacha_id'),
    prizeId: uuid('prize_id'),
    /** The shipping request, for shipped, returned, missing, damaged and substitute. */
    requestId: uuid('request_id'),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stock_movements_card_idx').on(t.stockCardId, t.id), index('stock_movements_prize_idx').on(t.prizeId)],
);

/**
 * The card a prize will now be fulfilled with, when it is no longer its tier's (a substitute chosen
 * after the original went missing or was damaged). Read by every stock step of a prize (shipping,
 * conversion in prize_convert), so it lives here beside the counters rather than in shipping.
 */
export const stockPrizeCards = pgTable('stock_prize_cards', {
  prizeId: uuid('prize_id').primaryKey(),
  stockCardId: uuid('stock_card_id')
    .notNull()
    .references(() => stockCards.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
