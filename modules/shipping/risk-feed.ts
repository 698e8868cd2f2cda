// What the fraud signals (modules/risk) read from the address books: the addresses added or changed
// after a point, opened in memory only so the risk job can fingerprint them (a keyed hash); the
// plain address never leaves this call.
import { and, asc, eq, gt, or } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid } from '#modules/kernel';
import { storedAddressSchema, type AddressFields } from './address-input';
import { openJson, type AddressKeyring } from './sealing';
import { memberAddresses } from './schema';

/** The id column is a uuid: an empty cursor id starts before every row. */
const uuidFloor = (id: string) => (isUuid(id) ? id : '00000000-0000-0000-0000-000000000000');

export interface AddressSighting {
  addressId: string;
  memberId: string;
  updatedAt: Date;
  fields: AddressFields;
}

/**
 * Book addresses changed after the cursor (updated_at, id), oldest first, opened; at most `limit`.
 * A row that does not open (a key no longer in the keyring) is skipped.
 * @example const batch = await addressesChangedSince(db, keyring, { at, id: '' }, 200)
 */
export async function addressesChangedSince(
  db: Database,
  keyring: AddressKeyring,
  cursor: { at: Date; id: string },
  limit: number,
): Promise<{ items: AddressSighting[]; last: { at: Date; id: string } | null; rows: number }> {
  const rows = await db
    .select()
    .from(memberAddresses)
    .where(
      or(
        gt(memberAddresses.updatedAt, cursor.at),
        and(eq(memberAddresses.updatedAt, cursor.at), gt(memberAddresses.id, uuidFloor(cursor.id))),
      ),
    )
    .orderBy(asc(memberAddresses.updatedAt), asc(memberAddresses.id))
    .limit(limit);
  const items: AddressSighting[] = [];
  for (const row of rows) {
    try {
      const fields = storedAddressSchema.parse(
        openJson(keyring, row.sealed, `member-address:${row.memberId}:${row.id}`),
      );
      items.push({ addressId: row.id, memberId: row.memberId, updatedAt: row.updatedAt, fields });
    } catch {
      // Not openable with this keyring: nothing to fingerprint.
    }
  }
  const tail = rows.at(-1);
  return { items, last: tail ? { at: tail.updatedAt, id: tail.id } : null, rows: rows.length };
}
