// The draw carried through the coin shop: the server's check of the pack and the count against a real
// database (an unknown pack, a count the pack does not offer, or an address in place of the id is
// dropped). The links built from it are in draw-context.test.ts.
import { describe, it, expect, beforeAll } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createPublishedPack } from '#tests/fixtures';
import { carriedDrawOf, resolveCarriedDraw } from './draw-context.server';

describe('checking a carried draw on the server', () => {
  const handle = useTestDatabase('draw-context');
  let packId: string;
  beforeAll(async () => {
    packId = await createPublishedPack(handle.db, { lots: 30, price: 300, drawOptions: [1, 10] });
  });

  it('keeps a pack that exists with one of its draw options, with its genre, title and cost', async () => {
    expect(await resolveCarriedDraw(handle.db, packId, '10')).toEqual({
      gachaId: packId,
      genreId: 'pokemon',
      title: `テストパック ${packId}`,
      count: 10,
      cost: 3000,
    });
    expect(await resolveCarriedDraw(handle.db, packId, 1)).toMatchObject({ count: 1, cost: 300 });
    expect(await carriedDrawOf(handle.db, new URLSearchParams(`gacha=${packId}&count=10`))).toMatchObject({
      gachaId: packId,
      count: 10,
    });
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
