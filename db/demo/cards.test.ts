// The demo catalogue's cards: one picture per card name in every pack, and the picture is that card's.
import { describe, it, expect } from 'vitest';
import { DEMO_CARDS, demoCard } from './cards';
import { DEFAULT_FORBIDDEN_PACK_WORDS, forbiddenWordsIn, type PackDefinition } from '#modules/gacha';
import { DEMO_PACKS, demoTiers } from './seed';

/** A tier's card name without the ラストワン, キリ番賞, 個人キリ番賞, ピタリ賞 or 天井賞 suffix: the card itself. */
const cardOf = (cardName: string) =>
  cardName.replace(/（(ラストワン限定|キリ番賞|個人キリ番賞|ピタリ賞|天井賞)）$/, '');

describe('demo cards', () => {
  it('gives every card name one picture across all demo packs', () => {
    const pictureOf = new Map<string, Set<string>>();
    for (const pack of DEMO_PACKS) {
      for (const tier of demoTiers(pack)) {
        const name = cardOf(tier.cardName);
        pictureOf.set(name, (pictureOf.get(name) ?? new Set()).add(tier.cardImagePath));
      }
    }
    expect(pictureOf.size).toBeGreaterThan(10);
    for (const [name, pictures] of pictureOf) expect([...pictures], name).toHaveLength(1);
    // …and no picture stands for two names.
    const names = [...pictureOf].map(([, pictures]) => [...pictures][0]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses the picture that prints the same name and rarity', () => {
    for (const pack of DEMO_PACKS) {
      for (const tier of demoTiers(pack)) {
        const card = DEMO_CARDS.find((c) => c.imagePath === tier.cardImagePath);
        expect(card, tier.cardImagePath).toBeDefined();
        expect(cardOf(tier.cardName)).toBe(`${card!.name} ${card!.rarity}`);
        expect(tier.rarity).toBe(card!.rarity);
      }
    }
  });

  it('numbers the pictures 1–30 by genre and name position', () => {
    expect(DEMO_CARDS.map((c) => c.number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(demoCard('onepiece', 0)).toMatchObject({
      name: '大海賊船長ガレオン',
      rarity: 'SAR',
      imagePath: '/demo/cards/card-07.svg',
    });
  });

  it('writes no copy that 景品表示法 forbids (the pack editor refuses to publish it)', () => {
    for (const pack of DEMO_PACKS) {
      const copy = { title: pack.title, tiers: demoTiers(pack) } as unknown as PackDefinition;
      expect(forbiddenWordsIn(copy, DEFAULT_FORBIDDEN_PACK_WORDS), pack.title).toEqual([]);
    }
  });
});
