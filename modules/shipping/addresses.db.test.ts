// The address book on a real database: add, list, change, delete, the usual address; another member's
// address is never found; at most 5 even when adds race (two connections on PostgreSQL); the sealed
// copy for a shipping request; key rotation; and no address text in any column.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '#db/client';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { addressInputSchema, type AddressInput } from './address-input';
import {
  createAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  lockAddressBook,
  openShippingAddress,
  rekeyAddresses,
  resealShippingAddress,
  sealedAddressForShipping,
  setDefaultAddress,
  updateAddress,
} from './addresses';
import { AddressSealError, type AddressKeyring } from './sealing';

const handle = useTestDatabase('addresses', { poolSize: 4 });

const k1 = { id: 'k1', secret: randomBytes(32) };
const k2 = { id: 'k2', secret: randomBytes(32) };
const keyring: AddressKeyring = [k1];

const address = (overrides: Partial<Record<string, unknown>> = {}): AddressInput =>
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

const added = async (memberId: string, overrides: Partial<Record<string, unknown>> = {}, ring = keyring) => {
  const outcome = await createAddress(handle.db, ring, memberId, address(overrides));
  if (!outcome.ok) throw new Error(outcome.code);
  return outcome.address;
};

describe('the address book', () => {
  it('adds, lists (usual first), changes, and deletes, keeping one usual address', async () => {
    const member = await createMember(handle.db);
    expect(await listAddresses(handle.db, keyring, member)).toEqual([]);
    const home = await added(member);
    expect(home).toMatchObject({
      name: '山田 太郎',
      postalCode: '1000001',
      isDefault: true,
      building: 'ステラハイツ101',
    });
    const office = await added(member, {
      name: '山田 花子',
      postalCode: '530-0001',
      prefecture: '大阪府',
      city: '大阪市北区',
      town: '梅田1-1',
      building: null,
    });
    expect(office.isDefault).toBe(false);
    expect((await listAddresses(handle.db, keyring, member)).map((a) => [a.id, a.isDefault])).toEqual([
      [home.id, true],
      [office.id, false],
    ]);

    const changed = await updateAddress(
      handle.db,
      keyring,
      member,
      office.id,
      address({ town: '千代田2-2', isDefault: true }),
    );
    expect(changed).toMatchObject({ ok: true, address: { town: '千代田2-2', isDefault: true, prefecture: '東京都' } });
    expect((await listAddresses(handle.db, keyring, member)).map((a) => [a.id, a.isDefault])).toEqual([
      [office.id, true],
      [home.id, false],
    ]);
    // Unticking 「いつもの住所」 does not leave the book without one.
    await updateAddress(handle.db, keyring, member, office.id, address({ isDefault: false }));
    expect(await getAddress(handle.db, keyring, member, office.id)).toMatchObject({
      ok: true,
      address: { isDefault: true },
    });

    expect(await setDefaultAddress(handle.db, member, home.id)).toEqual({ ok: true });
    expect((await listAddresses(handle.db, keyring, member))[0]).toMatchObject({ id: home.id, isDefault: true });
    // Deleting the usual address makes the earliest remaining one usual.
    const third = await added(member, { name: '鈴木 一郎' });
    expect(await deleteAddress(handle.db, member, home.id)).toEqual({ ok: true });
    expect((await listAddresses(handle.db, keyring, member)).map((a) => [a.id, a.isDefault])).toEqual([
      [office.id, true],
      [third.id, false],
    ]);
    expect(await deleteAddress(handle.db, member, home.id)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_FOUND' });
  });

  it("never shows or changes another member's address: it is not found", async () => {
    const alice = await createMember(handle.db);
    const bob = await createMember(handle.db);
    const alicesHome = await added(alice);
    await added(bob, { name: 'ボブ' });
    const notFound = { ok: false, code: 'ADDRESS_NOT_FOUND' };
    expect(await getAddress(handle.db, keyring, bob, alicesHome.id)).toMatchObject(notFound);
    expect(await updateAddress(handle.db, keyring, bob, alicesHome.id, address({ name: '乗っ取り' }))).toMatchObject(
      notFound,
    );
    expect(await setDefaultAddress(handle.db, bob, alicesHome.id)).toMatchObject(notFound);
    expect(await deleteAddress(handle.db, bob, alicesHome.id)).toMatchObject(notFound);
    expect(
      await sealedAddressForShipping(handle.db, keyring, {
        memberId: bob,
        addressId: alicesHome.id,
        shippingRequestId: 'r-1',
      }),
    ).toMatchObject(notFound);
    expect((await listAddresses(handle.db, keyring, bob)).map((a) => a.name)).toEqual(['ボブ']);
    expect(await listAddresses(handle.db, keyring, alice)).toEqual([alicesHome]);
    // An id that is not a UUID is simply not found (no database error).
    for (const id of ['', 'x', "'; drop table member_addresses; --"])
      expect(await getAddress(handle.db, keyring, alice, id)).toMatchObject(notFound);
  });

  it('holds at most 5 addresses', async () => {
    const member = await createMember(handle.db);
    for (let i = 0; i < 5; i += 1) await added(member, { name: `住所${i}` });
    expect(await createAddress(handle.db, keyring, member, address())).toEqual({
      ok: false,
      code: 'ADDRESS_LIMIT_REACHED',
      details: { limit: 5 },
    });
    const [first] = await listAddresses(handle.db, keyring, member);
    await deleteAddress(handle.db, member, first!.id);
    expect((await createAddress(handle.db, keyring, member, address())).ok).toBe(true);
  });

  it('holds at most 5 when many adds race', async () => {
    const member = await createMember(handle.db);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createAddress(handle.db, keyring, member, address({ name: `同時${i}` }))),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    expect(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.code)).toEqual(Array(3).fill('ADDRESS_LIMIT_REACHED'));
    const book = await listAddresses(handle.db, keyring, member);
    expect(book).toHaveLength(5);
    expect(book.filter((a) => a.isDefault)).toHaveLength(1);
  });

  it('serialises two adds at 4 addresses on two connections: one waits for the other and is refused', async (context) => {
    if (handle.engine !== 'postgres') context.skip('needs PostgreSQL: PGlite has one connection');
    const member = await createMember(handle.db);
    for (let i = 0; i < 4; i += 1) await added(member, { name: `住所${i}` });
    // A third connection holds the member's book, so both adds reach the lock before either counts.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = handle.db.transaction(async (tx) => {
      await lockAddressBook(tx, member);
      locked();
      await held;
    });
    await isLocked;
    let settled = 0;
    const racing = [
      createAddress(handle.db, keyring, member, address({ name: '競争A' })),
      createAddress(handle.db, keyring, member, address({ name: '競争B' })),
    ].map((add) => add.finally(() => (settled += 1)));
    // Both are waiting on the lock (not merely started): polled, not timed. Without the lock they
    // would finish here instead, both seeing room for one more.
    while (settled === 0) {
      const [waiting] = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
      );
      if (waiting!.n >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    await holder;
    const outcomes = await Promise.all(racing);
    expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ code: 'ADDRESS_LIMIT_REACHED' });
    expect(await listAddresses(handle.db, keyring, member)).toHaveLength(5);
  });
});

describe('sealing at rest', () => {
  it('keeps no address text in any column', async () => {
    const member = await createMember(handle.db);
    const home = await added(member, {
      name: '暗号 確認子',
      nameKana: 'アンゴウ カクニンコ',
      phone: '080-9876-5432',
      building: '秘密荘202',
    });
    const columns = await queryRows<{ column_name: string }>(
      handle.db,
      sql`select column_name from information_schema.columns where table_name = 'member_addresses' order by ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      'id',
      'member_id',
      'sealed',
      'key_id',
      'is_default',
      'created_at',
      'updated_at',
    ]);
    const [row] = await queryRows<Record<string, unknown>>(
      handle.db,
      sql`select * from member_addresses where id = ${home.id}`,
    );
    // The columns are the ones above: ids, times and a flag hold no text of the address, and the ids,
    // the times and the envelope's base64 show digit runs such as '080' by chance. So the plain text is
    // looked for in the envelope's decoded bytes, each piece at least four bytes long.
    expect(row!.key_id).toBe('k1');
    expect(typeof row!.is_default).toBe('boolean');
    const envelope = String(row!.sealed);
    expect(envelope).toMatch(/^a1\.k1(\.[A-Za-z0-9_-]+)+$/);
    const envelopeBytes = Buffer.concat(
      envelope
        .split('.')
        .slice(2)
        .map((part) => Buffer.from(part, 'base64url')),
    );
    for (const plain of [
      '暗号',
      'アンゴウ',
      '確認子',
      '1000001',
      '100-0001',
      '9876',
      '5432',
      '080-9876',
      '千代田',
      '東京都',
      '秘密荘',
    ])
      expect(envelopeBytes.includes(Buffer.from(plain, 'utf8'))).toBe(false);
  });

  it('does not open a row copied to another member (the member and row id are authenticated)', async () => {
    const alice = await createMember(handle.db);
    const mallory = await createMember(handle.db);
    const home = await added(alice);
    await handle.db.execute(
      sql`insert into member_addresses (id, member_id, sealed, key_id) select gen_random_uuid(), ${mallory}, sealed, key_id from member_addresses where id = ${home.id}`,
    );
    await expect(listAddresses(handle.db, keyring, mallory)).rejects.toBeInstanceOf(AddressSealError);
    await handle.db.execute(sql`delete from member_addresses where member_id = ${mallory}`);
  });

  it("copies an address for a shipping request that opens only for that request, and outlives the book's change", async () => {
    const member = await createMember(handle.db);
    const home = await added(member);
    const copy = await handle.db.transaction((tx) =>
      sealedAddressForShipping(tx, keyring, { memberId: member, addressId: home.id, shippingRequestId: 'request-1' }),
    );
    if (!copy.ok) throw new Error(copy.code);
    expect(copy.address).toMatchObject({ name: '山田 太郎', postalCode: '1000001' });
    expect(copy.sealed).not.toContain('山田');
    await updateAddress(handle.db, keyring, member, home.id, address({ name: '変更後' }));
    await deleteAddress(handle.db, member, home.id);
    expect(openShippingAddress(keyring, copy.sealed, 'request-1')).toEqual(copy.address);
    expect(() => openShippingAddress(keyring, copy.sealed, 'request-2')).toThrow(AddressSealError);
    // Rotation of a request's copy: sealed again under the first key, or left when it already is.
    expect(resealShippingAddress(keyring, copy.sealed, 'request-1')).toBeNull();
    const resealed = resealShippingAddress([k2, k1], copy.sealed, 'request-1');
    expect(resealed?.keyId).toBe('k2');
    expect(openShippingAddress([k2], resealed!.sealed, 'request-1')).toEqual(copy.address);
  });

  it('rekeys every row under an older key in batches, leaving the addresses and their times as they were', async () => {
    const members = [await createMember(handle.db), await createMember(handle.db)];
    for (const member of members) for (let i = 0; i < 3; i += 1) await added(member, { name: `鍵${i}` });
    const before = await Promise.all(members.map((m) => listAddresses(handle.db, keyring, m)));
    const rotated: AddressKeyring = [k2, k1];
    // Rows of earlier tests are under k1 too; all move.
    const result = await rekeyAddresses(handle.db, rotated, { batchSize: 2 });
    expect(result).toMatchObject({ keyId: 'k2', remaining: 0 });
    expect(result.rekeyed).toBeGreaterThanOrEqual(6);
    const [left] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from member_addresses where key_id <> 'k2' or sealed not like 'a1.k2.%'`,
    );
    expect(left!.n).toBe(0);
    // k1 can be dropped now: the new key alone opens every row, with nothing else changed.
    expect(await Promise.all(members.map((m) => listAddresses(handle.db, [k2], m)))).toEqual(before);
    expect(await rekeyAddresses(handle.db, [k2], { batchSize: 2 })).toEqual({ keyId: 'k2', rekeyed: 0, remaining: 0 });
    // A ring without the key a row is under cannot rekey it, and says so.
    const k3 = { id: 'k3', secret: randomBytes(32) };
    await expect(rekeyAddresses(handle.db, [k3], { batchSize: 10 })).rejects.toThrow(
      /key 'k2' is not in ADDRESS_ENCRYPTION_KEYS/,
    );
  });
});
