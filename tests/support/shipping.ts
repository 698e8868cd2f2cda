// Shipping for tests: the settings' defaults as ShippingRules (with a fresh address key), and members
// ready to ship: a verified phone, an address in the book, coins, and prizes won by real draws.
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { users } from '#db/schema';
import { drawLots } from '#modules/draw';
import { addressInputSchema, createAddress, type AddressKeyring, type ShippingRules } from '#modules/shipping';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from './fixtures';

/** One key for a test file's addresses and requests. */
export const testKeyring = (): AddressKeyring => [{ id: 'test', secret: randomBytes(32) }];

/** The settings' defaults (server/config.ts) as rules, with `overrides`. */
export function testShippingRules(overrides: Partial<ShippingRules> = {}): ShippingRules {
  return {
    feeCoins: 0,
    minPrizes: 1,
    dates: { businessDays: 5, closedDays: [], cutoffHour: 15 },
    storageDays: TEST_RULES.keptPrizeStorageDays,
    freeCoinDays: TEST_RULES.freeCoinDays,
    lateCompensationCoins: 100,
    site: { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' },
    keyring: testKeyring(),
    ...overrides,
  };
}

/** A plausible Japanese address, as a member types it. */
export const testAddressInput = (overrides: Record<string, unknown> = {}) =>
  addressInputSchema.parse({
    name: '山田 太郎',
    nameKana: 'ヤマダ タロウ',
    postalCode: '100-0001',
    prefecture: '東京都',
    city: '千代田区',
    town: '千代田1-1',
    building: 'ステラハイツ101',
    phone: '090-1234-5678',
    ...overrides,
  });

/** Marks the member's phone number verified (what better-auth's phone plugin does after an SMS code). */
export async function verifyPhone(db: Database, memberId: string): Promise<void> {
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  await db
    .update(users)
    .set({ phoneNumber: `+8190${digits}`, phoneNumberVerified: true })
    .where(eq(users.id, memberId));
}

export interface ShippingMember {
  memberId: string;
  addressId: string;
  prizeIds: string[];
}

/**
 * A member who can ask for shipping: verified phone (unless `phone: false`), one address, `coins` free
 * coins after drawing `prizes` lots (10 coins each, all spent) from a fresh pack.
 * @example const { memberId, addressId, prizeIds } = await shippingMember(db, rules, { prizes: 3 })
 */
export async function shippingMember(
  db: Database,
  rules: Pick<ShippingRules, 'keyring'>,
  options: { prizes?: number; coins?: number; phone?: boolean } = {},
): Promise<ShippingMember> {
  const count = options.prizes ?? 2;
  const gachaId = await createPublishedPack(db, {
    lots: Math.max(30, count + 5),
    price: 10,
    drawOptions: Array.from({ length: Math.max(count, 1) }, (_, i) => i + 1),
  });
  const memberId = await createMemberWithCoins(db, { paid: count * 10, free: options.coins });
  const drawn = await drawLots(db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
  });
  if (!drawn.ok) throw new Error(`shippingMember: draw refused ${drawn.code}`);
  if (options.phone !== false) await verifyPhone(db, memberId);
  const address = await createAddress(db, rules.keyring, memberId, testAddressInput());
  if (!address.ok) throw new Error(address.code);
  return { memberId, addressId: address.address.id, prizeIds: drawn.result.items.map((i) => i.prizeId) };
}
