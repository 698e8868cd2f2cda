// The catalogue's pure rules: the headline tier of a pack and the sort options (the queries are in index.db.test.ts).
import { describe, it, expect } from 'vitest';
import { parseGachaSort, headlineTier, kiribanProgress, packDefinitionSchema, type PackDefinition } from './index';

describe('headline prize', () => {
  it('chooses the lowest rank, and the ラストワン賞 only when it is all there is', () => {
    const tier = (rank: number, isLastOne = false) => ({
      rank,
      isLastOne,
      label: isLastOne ? 'ラストワン賞' : `${rank}等`,
    });
    expect(headlineTier([tier(0, true), tier(3), tier(2)])?.label).toBe('2等');
    expect(headlineTier([tier(0, true)])?.label).toBe('ラストワン賞');
    expect(headlineTier([])).toBeNull();
    // A キリ番賞 is an extra prize like the ラストワン賞: never the headline while a regular tier exists.
    expect(headlineTier([{ ...tier(0), kiribanAt: [100], label: 'キリ番賞' }, tier(2)])?.label).toBe('2等');
  });
});

describe('キリ番賞 in a pack definition (decision 027)', () => {
  const card = { cardImagePath: '/demo/cards/card-01.svg', conversionValue: 100 };
  const pack = (tiers: PackDefinition['tiers']): PackDefinition => ({
    id: 'kiriban-pack',
    genreId: 'pokemon',
    title: 'キリ番パック',
    imagePath: '/demo/packs/pack-01.svg',
    pricePerDraw: 100,
    tiers: [
      { key: 'A', label: 'A賞', rank: 1, cardName: 'A', quantity: 10, ...card },
      { key: 'B', label: 'B賞', rank: 2, cardName: 'B', quantity: 190, ...card },
      ...tiers,
    ],
  });
  const kiriban = (kiribanAt: number[], quantity = kiribanAt.length, extra = {}) => ({
    key: 'K',
    label: 'キリ番賞',
    rank: 0,
    cardName: 'K',
    quantity,
    kiribanAt,
    ...card,
    ...extra,
  });
  const messages = (definition: PackDefinition) => {
    const parsed = packDefinitionSchema.safeParse(definition);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  };

  it('accepts numbers within the pack, one prize each, and they are not lots', () => {
    expect(messages(pack([kiriban([100, 150])]))).toEqual([]);
  });

  it('explains each mistake in Japanese', () => {
    expect(messages(pack([kiriban([100, 150], 1)]))).toEqual(['キリ番賞の数量はキリ番の数（2）と同じにしてください。']);
    expect(messages(pack([kiriban([200])]))).toEqual([
      'キリ番 200 口目は総口数（200口）より前にしてください（最後の口はラストワン賞で設定します）。',
    ]);
    expect(messages(pack([kiriban([50, 50])]))).toEqual(['キリ番 50 口目が重複しています。']);
    expect(messages(pack([kiriban([50]), { ...kiriban([50]), key: 'K2' }]))).toEqual([
      'キリ番 50 口目が重複しています。',
    ]);
    expect(messages(pack([kiriban([0])]))).toEqual(['キリ番は1口目以降で指定してください。']);
    expect(messages(pack([kiriban([1.5])]))).toEqual(['キリ番は整数で指定してください。']);
    expect(messages(pack([kiriban([], 1)]))).toEqual(['キリ番を1つ以上指定してください。']);
    expect(messages(pack([kiriban([10], 1, { isLastOne: true })]))).toContain(
      'ラストワン賞にはキリ番を指定できません。',
    );
  });

  it('counts down to the next number from the lots sold', () => {
    const tiers = [{ kiribanAt: [500, 100] }, { kiribanAt: null }];
    expect(kiribanProgress(tiers, 1000, 1000)).toEqual({ numbers: [100, 500], sold: 0, next: 100, lotsToNext: 100 });
    expect(kiribanProgress(tiers, 1000, 901)).toMatchObject({ next: 100, lotsToNext: 1 });
    expect(kiribanProgress(tiers, 1000, 900)).toMatchObject({ next: 500, lotsToNext: 400 });
    expect(kiribanProgress(tiers, 1000, 0)).toMatchObject({ next: null, lotsToNext: null });
  });
});

describe('catalogue', () => {
  it('parses sort options', () => {
    expect(parseGachaSort('price_desc')).toBe('price_desc');
    expect(parseGachaSort('<script>')).toBe('recommended');
  });
});
