// 退会 in shipping: before the address book is erased, the ways its entries spell the member (the
// names, the number, the street) are read once, so that text kept elsewhere (a payment provider's
// payload, a staff note) can be redacted of them too. The sealed copies inside shipping requests stay
// sealed (decision 019; docs/personal-data.md says why); the desk's notes on them lose the spellings.
import { and, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { mentions, redactedText } from '#db/redact';
import { openJson, type AddressKeyring } from './sealing';
import { storedAddressSchema } from './address-input';
import { bookPlace } from './addresses';
import { memberAddresses, shippingRequests } from './schema';

/**
 * Every spelling of the member's address book entries: 氏名 (with and without its space), フリガナ, the
 * street, the building and the number (as stored and with hyphens). Read in the deletion's transaction,
 * before eraseAddressBook. An entry that does not open (its key is gone) is skipped, never an error:
 * it cannot block a deletion, and it is erased all the same.
 * @example const spellings = await addressSpellingsOf(tx, rules.keyring, memberId)
 */
export async function addressSpellingsOf(tx: Database, keyring: AddressKeyring, memberId: string): Promise<string[]> {
  const spellings = new Set<string>();
  const rows = await tx.select().from(memberAddresses).where(eq(memberAddresses.memberId, memberId));
  for (const row of rows) {
    let entry;
    try {
      entry = storedAddressSchema.parse(openJson(keyring, row.sealed, bookPlace(memberId, row.id)));
    } catch {
      continue;
    }
    for (const value of [entry.name, entry.nameKana, entry.town, entry.building, entry.phone]) {
      if (!value) continue;
      spellings.add(value);
      spellings.add(value.replace(/[\s\u3000]/g, ''));
    }
    const digits = entry.phone.replace(/\D/g, '');
    if (digits.length === 11) spellings.add(`${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`);
    spellings.add(digits);
  }
  return [...spellings];
}

/**
 * In the deletion's transaction: the desk's notes on the member's shipping requests stay (the request is
 * kept with its sealed copy), with the member's identifiers redacted. Answers the requests changed.
 * @example await redactShippingNotesOf(tx, { memberId, spellings })
 */
export async function redactShippingNotesOf(
  tx: Database,
  member: { memberId: string; spellings: readonly string[] },
): Promise<number> {
  const rows = await tx
    .update(shippingRequests)
    .set({ internalNote: redactedText(shippingRequests.internalNote, member.spellings) })
    .where(
      and(eq(shippingRequests.memberId, member.memberId), mentions(shippingRequests.internalNote, member.spellings)),
    )
    .returning({ id: shippingRequests.id });
  return rows.length;
}
