// The members' address books: list, add (at most 5, serialised per member), change, delete, the usual
// address, the sealed copy a shipping request keeps, and re-sealing under a new key. Every function
// takes the member from the caller's session: another member's address is simply not found.
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid, refuse, type Outcome } from '#modules/kernel';
import { MAX_ADDRESSES_PER_MEMBER } from './address-text';
import { addressFieldsOf, storedAddressSchema, type AddressFields, type AddressInput } from './address-input';
import { POSTAL_REFUSAL_CODES } from './postal';
import { openJson, sealJson, sealedKeyId, type AddressKeyring } from './sealing';
import { memberAddresses } from './schema';

/** Refusals of the address book and the postal look-up; worded in refusal-words.ts. */
export const ADDRESS_REFUSAL_CODES = ['ADDRESS_NOT_FOUND', 'ADDRESS_LIMIT_REACHED', ...POSTAL_REFUSAL_CODES] as const;
export type AddressRefusalCode = (typeof ADDRESS_REFUSAL_CODES)[number];

/** An address of the book, opened. */
export interface MemberAddress extends AddressFields {
  id: string;
  /** The member's usual address (いつもの配送先): the first address, or the one the member chose. */
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

type AddressRow = typeof memberAddresses.$inferSelect;

/** Advisory-lock class of the address books ('addr'); the second key is the member's hash. */
const ADDRESS_BOOK_LOCK = 0x61646472;

/**
 * Serialises one member's changes to the book until the transaction ends (PostgreSQL advisory lock:
 * there may be no row to lock yet). Two concurrent adds at 4 addresses cannot both see room.
 */
export async function lockAddressBook(tx: Database, memberId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_BOOK_LOCK}::int, hashtext(${memberId}))`);
}

/** Runs one change of a member's book in a transaction that holds the book's lock. */
function changeAddressBook<T>(db: Database, memberId: string, change: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await lockAddressBook(tx, memberId);
    return change(tx);
  });
}

/** Where a book row's sealed value belongs: the member and the row (its AAD). */
export const bookPlace = (memberId: string, addressId: string) => `member-address:${memberId}:${addressId}`;
/** Where a shipping request's copy belongs. */
const shippingPlace = (shippingRequestId: string) => `shipping-request:${shippingRequestId}`;

function openRow(keyring: AddressKeyring, row: AddressRow): MemberAddress {
  const fields = storedAddressSchema.parse(openJson(keyring, row.sealed, bookPlace(row.memberId, row.id)));
  return { id: row.id, ...fields, isDefault: row.isDefault, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

async function findRow(db: Database, memberId: string, addressId: string): Promise<AddressRow | undefined> {
  if (!isUuid(addressId)) return undefined;
  const [row] = await db
    .select()
    .from(memberAddresses)
    .where(and(eq(memberAddresses.memberId, memberId), eq(memberAddresses.id, addressId)));
  return row;
}

const clearDefault = (tx: Database, memberId: string) =>
  tx
    .update(memberAddresses)
    .set({ isDefault: false })
    .where(and(eq(memberAddresses.memberId, memberId), eq(memberAddresses.isDefault, true)));

/**
 * The member's addresses: the usual one first, then in the order they were added.
 * @example const addresses = await listAddresses(db, config.addressKeyring, member.id)
 */
export async function listAddresses(db: Database, keyring: AddressKeyring, memberId: string): Promise<MemberAddress[]> {
  const rows = await db
    .select()
    .from(memberAddresses)
    .where(eq(memberAddresses.memberId, memberId))
    .orderBy(desc(memberAddresses.isDefault), asc(memberAddresses.createdAt), asc(memberAddresses.id));
  return rows.map((row) => openRow(keyring, row));
}

/** One of the member's addresses; another member's (or no) address is ADDRESS_NOT_FOUND. */
export async function getAddress(
  db: Database,
  keyring: AddressKeyring,
  memberId: string,
  addressId: string,
): Promise<Outcome<{ ok: true; address: MemberAddress }, 'ADDRESS_NOT_FOUND'>> {
  const row = await findRow(db, memberId, addressId);
  return row ? { ok: true, address: openRow(keyring, row) } : refuse('ADDRESS_NOT_FOUND');
}

/**
 * Adds an address (parsed by addressInputSchema). The first address is the usual one; `isDefault`
 * makes a later one usual. At most MAX_ADDRESSES_PER_MEMBER, also when two adds race.
 * @example const added = await createAddress(db, keyring, member.id, addressInputSchema.parse(body))
 */
export async function createAddress(
  db: Database,
  keyring: AddressKeyring,
  memberId: string,
  input: AddressInput,
): Promise<Outcome<{ ok: true; address: MemberAddress }, 'ADDRESS_LIMIT_REACHED'>> {
  return changeAddressBook(db, memberId, async (tx) => {
    const [held] = await tx.select({ n: count() }).from(memberAddresses).where(eq(memberAddresses.memberId, memberId));
    const addresses = held?.n ?? 0;
    if (addresses >= MAX_ADDRESSES_PER_MEMBER)
      return refuse('ADDRESS_LIMIT_REACHED', { limit: MAX_ADDRESSES_PER_MEMBER });
    const id = randomUUID();
    const isDefault = addresses === 0 || input.isDefault === true;
    if (isDefault) await clearDefault(tx, memberId);
    const fields = addressFieldsOf(input);
    const { sealed, keyId } = sealJson(keyring, fields, bookPlace(memberId, id));
    const [row] = await tx.insert(memberAddresses).values({ id, memberId, sealed, keyId, isDefault }).returning();
    return {
      ok: true as const,
      address: { ...fields, id, isDefault, createdAt: row!.createdAt, updatedAt: row!.updatedAt },
    };
  });
}

/**
 * Replaces an address's fields (sealed again under the current key). `isDefault: true` makes it
 * the usual address; false leaves the usual address as it is (another is chosen by making it usual).
 */
export async function updateAddress(
  db: Database,
  keyring: AddressKeyring,
  memberId: string,
  addressId: string,
  input: AddressInput,
): Promise<Outcome<{ ok: true; address: MemberAddress }, 'ADDRESS_NOT_FOUND'>> {
  if (!isUuid(addressId)) return refuse('ADDRESS_NOT_FOUND');
  return changeAddressBook(db, memberId, async (tx) => {
    const row = await findRow(tx, memberId, addressId);
    if (!row) return refuse('ADDRESS_NOT_FOUND');
    const isDefault = row.isDefault || input.isDefault === true;
    if (isDefault && !row.isDefault) await clearDefault(tx, memberId);
    const fields = addressFieldsOf(input);
    const { sealed, keyId } = sealJson(keyring, fields, bookPlace(memberId, addressId));
    const [updated] = await tx
      .update(memberAddresses)
      .set({ sealed, keyId, isDefault, updatedAt: new Date() })
      .where(and(eq(memberAddresses.memberId, memberId), eq(memberAddresses.id, addressId)))
      .returning();
    return {
      ok: true as const,
      address: { ...fields, id: addressId, isDefault, createdAt: updated!.createdAt, updatedAt: updated!.updatedAt },
    };
  });
}

/**
 * Deletes an address. When it was the usual one, the earliest remaining address becomes usual, so a
 * book with addresses always has one.
 */
export async function deleteAddress(
  db: Database,
  memberId: string,
  addressId: string,
): Promise<Outcome<{ ok: true }, 'ADDRESS_NOT_FOUND'>> {
  if (!isUuid(addressId)) return refuse('ADDRESS_NOT_FOUND');
  return changeAddressBook(db, memberId, async (tx) => {
    const [deleted] = await tx
      .delete(memberAddresses)
      .where(and(eq(memberAddresses.memberId, memberId), eq(memberAddresses.id, addressId)))
      .returning({ isDefault: memberAddresses.isDefault });
    if (!deleted) return refuse('ADDRESS_NOT_FOUND');
    if (deleted.isDefault) {
      const [next] = await tx
        .select({ id: memberAddresses.id })
        .from(memberAddresses)
        .where(eq(memberAddresses.memberId, memberId))
        .orderBy(asc(memberAddresses.createdAt), asc(memberAddresses.id))
        .limit(1);
      if (next) await tx.update(memberAddresses).set({ isDefault: true }).where(eq(memberAddresses.id, next.id));
    }
    return { ok: true as const };
  });
}

/**
 * Erases a member's whole address book (退会: identity's deletion calls it in the tombstone's
 * transaction). The sealed copies inside shipping requests stay: a request is a record of a parcel
 * sent (古物営業法's books), and a request not yet shipped still has to reach the member.
 * @example await deleteOwnAccount({ …, eraseWith: eraseAddressBook })
 */
export async function eraseAddressBook(tx: Database, memberId: string): Promise<number> {
  const erased = await tx
    .delete(memberAddresses)
    .where(eq(memberAddresses.memberId, memberId))
    .returning({ id: memberAddresses.id });
  return erased.length;
}

/** Makes one of the member's addresses the usual one (いつもの配送先). */
export async function setDefaultAddress(
  db: Database,
  memberId: string,
  addressId: string,
): Promise<Outcome<{ ok: true }, 'ADDRESS_NOT_FOUND'>> {
  if (!isUuid(addressId)) return refuse('ADDRESS_NOT_FOUND');
  return changeAddressBook(db, memberId, async (tx) => {
    const row = await findRow(tx, memberId, addressId);
    if (!row) return refuse('ADDRESS_NOT_FOUND');
    if (!row.isDefault) {
      await clearDefault(tx, memberId);
      await tx.update(memberAddresses).set({ isDefault: true }).where(eq(memberAddresses.id, addressId));
    }
    return { ok: true as const };
  });
}

/**
 * The copy of an address a shipping request keeps: sealed anew under the current key and bound to
 * the request, so it stays as it was when the member asked even if the book changes, and opens only
 * for that request (openShippingAddress). Call it inside the transaction that creates the request.
 * @example const copy = await sealedAddressForShipping(tx, keyring, { memberId, addressId, shippingRequestId })
 */
export async function sealedAddressForShipping(
  tx: Database,
  keyring: AddressKeyring,
  input: { memberId: string; addressId: string; shippingRequestId: string },
): Promise<Outcome<{ ok: true; sealed: string; keyId: string; address: AddressFields }, 'ADDRESS_NOT_FOUND'>> {
  const row = await findRow(tx, input.memberId, input.addressId);
  if (!row) return refuse('ADDRESS_NOT_FOUND');
  const address = addressFieldsOf(openRow(keyring, row));
  const { sealed, keyId } = sealJson(keyring, address, shippingPlace(input.shippingRequestId));
  return { ok: true, sealed, keyId, address };
}

/**
 * Opens a shipping request's copy of the address (throws AddressSealError for another request's copy).
 * @example const address = openShippingAddress(keyring, request.sealedAddress, request.id)
 */
export function openShippingAddress(keyring: AddressKeyring, sealed: string, shippingRequestId: string): AddressFields {
  return storedAddressSchema.parse(openJson(keyring, sealed, shippingPlace(shippingRequestId)));
}

/**
 * A shipping request's copy sealed again under the current key, or null when it already is (for
 * the shipping requests' part of a key rotation).
 */
export function resealShippingAddress(
  keyring: AddressKeyring,
  sealed: string,
  shippingRequestId: string,
): { sealed: string; keyId: string } | null {
  if (sealedKeyId(sealed) === keyring[0]?.id) return null;
  return sealJson(keyring, openShippingAddress(keyring, sealed, shippingRequestId), shippingPlace(shippingRequestId));
}

/**
 * Key rotation: seals every book row still under an older key again under the keyring's first
 * key, `batchSize` rows per transaction (rows a member is changing are skipped: the change seals
 * them under the new key). Throws AddressSealError when a row's key is not in the keyring.
 * @example await rekeyAddresses(db, config.addressKeyring, { batchSize: 500 }) // { keyId: 'k2', rekeyed: 1200, remaining: 0 }
 */
export async function rekeyAddresses(
  db: Database,
  keyring: AddressKeyring,
  options: { batchSize: number },
): Promise<{ keyId: string; rekeyed: number; remaining: number }> {
  const current = keyring[0]?.id;
  if (!current) throw new Error('the address keyring is empty (ADDRESS_ENCRYPTION_KEYS)');
  let rekeyed = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(memberAddresses)
        .where(ne(memberAddresses.keyId, current))
        .orderBy(asc(memberAddresses.id))
        .limit(options.batchSize)
        .for('update', { skipLocked: true });
      for (const row of rows) {
        const fields = addressFieldsOf(openRow(keyring, row));
        const { sealed, keyId } = sealJson(keyring, fields, bookPlace(row.memberId, row.id));
        // The member changed nothing: updated_at stays.
        await tx.update(memberAddresses).set({ sealed, keyId }).where(eq(memberAddresses.id, row.id));
      }
      return rows.length;
    });
    rekeyed += done;
    if (done < options.batchSize) break;
  }
  const [left] = await db.select({ n: count() }).from(memberAddresses).where(ne(memberAddresses.keyId, current));
  return { keyId: current, rekeyed, remaining: left?.n ?? 0 };
}
