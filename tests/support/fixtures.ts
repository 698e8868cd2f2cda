// Members and packs for module tests, made through the same module functions operators use.
import { randomUUID } from 'node:crypto';
import type { Database } from '#db/client';
import { eq } from 'drizzle-orm';
import { users } from '#db/schema';
import { genres } from '#db/schema';
import {
  createPack,
  isLotTier,
  publishPack,
  receiveStock,
  type BeaconPublishTerms,
  type PackDefinition,
} from '#modules/gacha';
import { ceilingQuantity, personalKiribanQuantity } from '#modules/fairness';

const lotsOfTiers = (tiers: PackDefinition['tiers']) =>
  tiers.filter(isLotTier).reduce((sum, tier) => sum + tier.quantity, 0);
import { grantCoins, PAID_COIN_DAYS, FREE_COIN_DAYS } from '#modules/wallet';
import { KEPT_PRIZE_STORAGE_DAYS, PRIZE_DECISION_DAYS } from '#modules/draw';
import { DEFAULT_PAYMENT_RULES } from '#modules/payments';

/** Inserts a member row (the identity module's sign-up is tested elsewhere). */
export async function createMember(
  db: Database,
  options: { role?: 'user' | 'admin'; name?: string } = {},
): Promise<string> {
  const id = `m_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  await db
    .insert(users)
    .values({ id, name: options.name ?? 'テスト会員', email: `${id}@example.test`, role: options.role ?? 'user' });
  return id;
}

export async function createMemberWithCoins(
  db: Database,
  coins: { paid?: number; free?: number },
  options: { role?: 'user' | 'admin' } = {},
) {
  const id = await createMember(db, options);
  if (coins.paid)
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: id,
      kind: 'paid',
      amount: coins.paid,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `test:paid:${id}`,
    });
  if (coins.free)
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: id,
      kind: 'free',
      amount: coins.free,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: `test:free:${id}`,
    });
  return id;
}

/**
 * Grants `amount` paid coins, as an operator's adjustment, to the member signed up with `email` (tests
 * that sign up through the pages and then draw). Once per email.
 * @example await grantPaidCoinsByEmail(handle.db, email, 1_000)
 */
export async function grantPaidCoinsByEmail(db: Database, email: string, amount: number): Promise<string> {
  const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!member) throw new Error(`no member signed up with ${email}`);
  await grantCoins(db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId: member.id,
    kind: 'paid',
    amount,
    reason: 'operator_grant',
    counterAccount: 'adjustment',
    idempotencyKey: `test:${email}`,
  });
  return member.id;
}

export async function ensureGenre(db: Database, id = 'pokemon') {
  await db.insert(genres).values({ id, name: id }).onConflictDoNothing();
}

/** A genre never shown to members: packs a shared-shop test makes there stay out of the catalogue. */
export const HIDDEN_TEST_GENRE = 'test-hidden';
export async function ensureHiddenGenre(db: Database) {
  await db
    .insert(genres)
    .values({ id: HIDDEN_TEST_GENRE, name: 'テスト（非表示）', visible: false })
    .onConflictDoNothing();
}

/**
 * Receives exactly the cards a pack's tiers need (decision 023: publishing reserves them), at each
 * tier's conversion value, so the pack can be published.
 * @example await receiveStockFor(db, definition.tiers)
 */
export async function receiveStockFor(db: Database, tiers: PackDefinition['tiers']): Promise<void> {
  // One receipt holds at most RECEIPT_MAX cards (the stock form's limit): a bigger tier (the draw
  // benchmark's 300,000-lot pack) arrives in several receipts of the same card.
  const RECEIPT_MAX = 100_000;
  await db.transaction(async (tx) => {
    for (const tier of tiers)
      for (let left = tier.quantity; left > 0; left -= RECEIPT_MAX)
        await receiveStock(tx, {
          cardName: tier.cardName,
          cardSet: tier.cardSet ?? null,
          cardNumber: tier.cardNumber ?? null,
          cardGrade: tier.cardGrade ?? null,
          count: Math.min(left, RECEIPT_MAX),
          valueCoins: tier.conversionValue,
        });
  });
}

/**
 * A published pack: tiers S (1), A (2), B (rest) and optionally a ラストワン賞, its cards received first.
 * @example const id = await createPublishedPack(db, { lots: 20, price: 100 })
 */
export async function createPublishedPack(
  db: Database,
  options: {
    id?: string;
    lots: number;
    price: number;
    lastOne?: boolean;
    drawOptions?: number[];
    perMemberLimit?: number;
    minRank?: number;
    saleEndsAt?: Date;
    /** A キリ番賞 tier 'K' for these lot numbers (decision 027). */
    kiribanAt?: number[];
    /** A 個人キリ番賞 tier 'PK' for these numbers of a member's own lots (decision 088). */
    personalKiribanAt?: number[];
    /** ピタリ賞 tiers 'P<key>' for these tiers' last lots (decision 088): 'S', 'A' or 'B'. */
    pitariOf?: ('S' | 'A' | 'B')[];
    /** A 天井賞 tier 'CE' (decision 089): after this many lots in a row without one of these tiers. */
    ceiling?: { after: number; of: ('S' | 'A' | 'B')[] };
    /** The pack's genre (default pokemon); `HIDDEN_TEST_GENRE` keeps it out of the shop's lists. */
    genreId?: string;
    /** A beacon pack (decision 081), published with these terms. */
    beacon?: BeaconPublishTerms;
    /** A waiting room (decision 087); needs `perMemberLimit`. */
    waitingRoom?: { windowSeconds?: number; batch?: number };
  },
): Promise<string> {
  if (options.genreId === HIDDEN_TEST_GENRE) await ensureHiddenGenre(db);
  else await ensureGenre(db, options.genreId);
  const id = options.id ?? `t-${randomUUID().slice(0, 8)}`;
  const tiers: PackDefinition['tiers'] = [
    {
      key: 'S',
      label: 'S賞',
      rank: 1,
      effect: 'rainbow',
      cardName: 'テストS',
      cardImagePath: '/demo/cards/card-01.svg',
      quantity: 1,
      conversionValue: options.price * 50,
    },
    {
      key: 'A',
      label: 'A賞',
      rank: 2,
      effect: 'gold',
      cardName: 'テストA',
      cardImagePath: '/demo/cards/card-02.svg',
      quantity: 2,
      conversionValue: options.price * 5,
    },
    {
      key: 'B',
      label: 'B賞',
      rank: 3,
      effect: 'normal',
      cardName: 'テストB',
      cardImagePath: '/demo/cards/card-03.svg',
      quantity: Math.max(options.lots - 3, 1),
      conversionValue: Math.floor(options.price / 2),
    },
  ];
  if (options.kiribanAt)
    tiers.push({
      key: 'K',
      label: 'キリ番賞',
      rank: 0,
      effect: 'gold',
      cardName: 'テストキリ番',
      cardImagePath: '/demo/cards/card-05.svg',
      quantity: options.kiribanAt.length,
      conversionValue: options.price * 10,
      kiribanAt: options.kiribanAt,
    });
  if (options.personalKiribanAt)
    tiers.push({
      key: 'PK',
      label: '個人キリ番賞',
      rank: 0,
      effect: 'gold',
      cardName: 'テスト個人キリ番',
      cardImagePath: '/demo/cards/card-06.svg',
      quantity: personalKiribanQuantity(options.personalKiribanAt, lotsOfTiers(tiers)),
      conversionValue: options.price * 3,
      personalKiribanAt: options.personalKiribanAt,
    });
  for (const target of options.pitariOf ?? [])
    tiers.push({
      key: `P${target}`,
      label: `${target}賞ピタリ賞`,
      rank: 0,
      effect: 'gold',
      cardName: `テストピタリ${target}`,
      cardImagePath: '/demo/cards/card-07.svg',
      quantity: 1,
      conversionValue: options.price * 7,
      pitariOf: target,
    });
  if (options.ceiling)
    tiers.push({
      key: 'CE',
      label: '天井賞',
      rank: 0,
      effect: 'gold',
      cardName: 'テスト天井',
      cardImagePath: '/demo/cards/card-08.svg',
      quantity: ceilingQuantity(options.ceiling.after, lotsOfTiers(tiers)),
      // Worth at least every tier it guarantees (「S賞以上確定」 needs an S賞's worth).
      conversionValue: options.ceiling.of.includes('S')
        ? options.price * 50
        : options.ceiling.of.includes('A')
          ? options.price * 5
          : Math.floor(options.price / 2),
      ceilingAfter: options.ceiling.after,
      ceilingOf: options.ceiling.of,
    });
  if (options.lastOne)
    tiers.push({
      key: 'LO',
      label: 'ラストワン賞',
      rank: 0,
      effect: 'lastone',
      cardName: 'テストラストワン',
      cardImagePath: '/demo/cards/card-04.svg',
      quantity: 1,
      conversionValue: options.price * 20,
      isLastOne: true,
    });
  await createPack(db, {
    id,
    genreId: options.genreId ?? 'pokemon',
    title: `テストパック ${id}`,
    imagePath: '/demo/packs/pack-01.svg',
    pricePerDraw: options.price,
    drawOptions: options.drawOptions ?? [1, 10, 100],
    perMemberLimit: options.perMemberLimit,
    minRank: options.minRank,
    saleEndsAt: options.saleEndsAt,
    ...(options.waitingRoom
      ? {
          waitingRoom: true,
          waitingRoomWindowSeconds: options.waitingRoom.windowSeconds ?? 180,
          waitingRoomBatch: options.waitingRoom.batch ?? 50,
        }
      : {}),
    tiers,
    ...(options.beacon ? { drawMode: 'beacon' as const } : {}),
  });
  await receiveStockFor(db, tiers);
  await publishPack(db, id, undefined, { beacon: options.beacon });
  return id;
}

/**
 * A large published pack for the storm and the benchmark: tiers S/A/B/C (1, 10, 100, rest) and a
 * ラストワン賞, draws of 1 or 10.
 * @example await publishLoadPack(db, { id: 'bench-1lot', lots: 100_000, price: 100, name: 'ベンチ' })
 */
export async function publishLoadPack(
  db: Database,
  options: { id: string; lots: number; price: number; name: string; kiribanAt?: number[] },
) {
  const { id, lots, price, name, kiribanAt } = options;
  await ensureGenre(db);
  const card = (n: number) => `/demo/cards/card-0${n}.svg`;
  const definition: PackDefinition = {
    id,
    genreId: 'pokemon',
    title: `${name}パック ${id}`,
    imagePath: '/demo/packs/pack-01.svg',
    pricePerDraw: price,
    drawOptions: [1, 10],
    tiers: [
      {
        key: 'S',
        label: 'S賞',
        rank: 1,
        effect: 'rainbow',
        cardName: `${name}S`,
        cardImagePath: card(1),
        quantity: 1,
        conversionValue: price * 100,
      },
      {
        key: 'A',
        label: 'A賞',
        rank: 2,
        effect: 'gold',
        cardName: `${name}A`,
        cardImagePath: card(2),
        quantity: 10,
        conversionValue: price * 10,
      },
      {
        key: 'B',
        label: 'B賞',
        rank: 3,
        effect: 'silver',
        cardName: `${name}B`,
        cardImagePath: card(3),
        quantity: 100,
        conversionValue: price * 2,
      },
      {
        key: 'C',
        label: 'C賞',
        rank: 4,
        effect: 'normal',
        cardName: `${name}C`,
        cardImagePath: card(4),
        quantity: lots - 111,
        conversionValue: Math.floor(price / 2),
      },
      {
        key: 'LO',
        label: 'ラストワン賞',
        rank: 0,
        effect: 'lastone',
        cardName: `${name}ラストワン`,
        cardImagePath: card(5),
        quantity: 1,
        conversionValue: price * 50,
        isLastOne: true,
      },
      ...(kiribanAt
        ? [
            {
              key: 'K',
              label: 'キリ番賞',
              rank: 0,
              effect: 'gold' as const,
              cardName: `${name}キリ番`,
              cardImagePath: card(6),
              quantity: kiribanAt.length,
              conversionValue: price * 20,
              kiribanAt,
            },
          ]
        : []),
    ],
  };
  await createPack(db, definition);
  await receiveStockFor(db, definition.tiers);
  await publishPack(db, id);
}

/**
 * The shop's rules in tests: the settings' defaults (server/config.ts), passed explicitly wherever the
 * shop passes its settings, since no module function falls back to a default of its own.
 */
export const TEST_RULES = {
  coinLifetimes: { paid: PAID_COIN_DAYS, free: FREE_COIN_DAYS },
  prizeDecisionDays: PRIZE_DECISION_DAYS,
  keptPrizeStorageDays: KEPT_PRIZE_STORAGE_DAYS,
  freeCoinDays: FREE_COIN_DAYS,
  payments: DEFAULT_PAYMENT_RULES,
} as const;
