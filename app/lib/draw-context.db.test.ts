// The draw carried through the coin shop: the links built from it (pure), and the server's check of
// the pack and the count against a real database (an unknown pack, a count the pack does not offer,
// or an address in place of the id is dropped).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { createPublishedPack } from '../../tests/support/fixtures';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { continueDrawLabel, drawContextQuery, packDrawPath, withDrawContext } from './draw-context';
import { carriedDrawOf, resolveCarriedDraw } from './draw-context.server';

describe('links of a carried draw', () => {
  it('adds the draw to a path, and nothing without one', () => {
    expect(withDrawContext('/shop', { gachaId: 'p-1', count: 10 })).toBe('/shop?gacha=p-1&count=10');
    expect(withDrawContext('/shop/checkout/sandbox?pack=coin-500', { gachaId: 'p-1', count: 100 })).toBe('/shop/checkout/sandbox?pack=coin-500&gacha=p-1&count=100');
    expect(withDrawContext('/shop', null)).toBe('/shop');
    expect(drawContextQuery(undefined)).toBe('');
  });
  it('goes back to the pack with the confirmation of the count open, labelled as the draw buttons are', () => {
    expect(packDrawPath({ genreId: 'pokemon', gachaId: 'p-1', count: 10 })).toBe('/gacha/pokemon/p-1?confirm=10');
    expect(continueDrawLabel({ count: 10, title: '星降る夜' })).toBe('続けて10連を引く（星降る夜）');
    expect(continueDrawLabel({ count: 1, title: '星降る夜' })).toBe('続けて1回を引く（星降る夜）');
    expect(continueDrawLabel({ count: 100, title: 'X' })).toBe('続けて100連を引く（X）');
  });
});

describe('checking a carried draw on the server', () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let packId: string;
  beforeAll(async () => {
    testDb = await createTestDatabase('draw-context');
    handle = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, poolSize: 2 });
    await handle.migrate();
    packId = await createPublishedPack(handle.db, { lots: 30, price: 300, drawOptions: [1, 10] });
  });
  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it('keeps a pack that exists with one of its draw options, with its genre, title and cost', async () => {
    expect(await resolveCarriedDraw(handle.db, packId, '10')).toEqual({
      gachaId: packId, genreId: 'pokemon', title: `テストパック ${packId}`, count: 10, cost: 3000,
    });
    expect(await resolveCarriedDraw(handle.db, packId, 1)).toMatchObject({ count: 1, cost: 300 });
    expect(await carriedDrawOf(handle.db, new URLSearchParams(`gacha=${packId}&count=10`))).toMatchObject({ gachaId: packId, count: 10 });
  });

  it('drops an unknown pack, a count the pack does not offer, and anything that is not an id', async () => {
    const dropped: [unknown, unknown][] = [
      ['no-such-pack', '10'],
      [packId, '100'],
      [packId, '7'],
      [packId, '0'],
      [packId, '-10'],
      [packId, '10.0'],
      [packId, '1e1'],
      [packId, ''],
      [packId, null],
      ['https://evil.example/', '10'],
      ['//evil.example', '10'],
      ['../../api/v1', '10'],
      [`${packId}?x=1`, '10'],
      [null, '10'],
      [['a'], '10'],
    ];
    for (const [gacha, count] of dropped) {
      expect(await resolveCarriedDraw(handle.db, gacha, count), `${String(gacha)} × ${String(count)}`).toBeNull();
    }
    expect(await carriedDrawOf(handle.db, new URLSearchParams('count=10'))).toBeNull();
  });
});
