// The demo packs' extra prizes beyond the ラストワン賞 (decisions 027, 088, 089): キリ番賞, 個人キリ番賞, ピタリ賞 and
// 天井賞, each worth a multiple of the pack's price and pictured by one of its genre's demo cards.
import { ceilingQuantity, personalKiribanQuantity } from '#modules/fairness';
import type { PackDefinition } from '#modules/gacha';

/** What a demo pack says of its extra prizes (db/demo/seed.ts's DemoPack). */
interface DemoExtras {
  price: number;
  total: number;
  kiribanAt?: number[];
  personalKiribanAt?: number[];
  pitariOf?: 'S' | 'A';
  ceilingAfter?: number;
}

/** The extra-prize tiers a demo pack asks for, in the order the pack page lists them. */
export function demoExtraTiers(
  pack: DemoExtras,
  card: (slot: number) => { imagePath: string; rarity: string },
  named: (slot: number, suffix?: string) => string,
): PackDefinition['tiers'] {
  const tiers: PackDefinition['tiers'] = [];
  if (pack.kiribanAt) {
    tiers.push({
      key: 'KIRIBAN',
      label: 'キリ番賞',
      rank: 0,
      effect: 'gold',
      cardName: named(3, '（キリ番賞）'),
      cardImagePath: card(3).imagePath,
      rarity: card(3).rarity,
      cardGrade: 'PSA10',
      quantity: pack.kiribanAt.length,
      conversionValue: pack.price * 20,
      kiribanAt: pack.kiribanAt,
    });
  }
  if (pack.personalKiribanAt) {
    tiers.push({
      key: 'PERSONAL',
      label: '個人キリ番賞',
      rank: 0,
      effect: 'gold',
      cardName: named(2, '（個人キリ番賞）'),
      cardImagePath: card(2).imagePath,
      rarity: card(2).rarity,
      quantity: personalKiribanQuantity(pack.personalKiribanAt, pack.total),
      conversionValue: pack.price * 3,
      personalKiribanAt: pack.personalKiribanAt,
    });
  }
  if (pack.pitariOf) {
    tiers.push({
      key: 'PITARI',
      label: 'ピタリ賞',
      rank: 0,
      effect: 'gold',
      cardName: named(1, '（ピタリ賞）'),
      cardImagePath: card(1).imagePath,
      rarity: card(1).rarity,
      quantity: 1,
      conversionValue: pack.price * 15,
      pitariOf: pack.pitariOf,
    });
  }
  if (pack.ceilingAfter) {
    tiers.push({
      key: 'CEILING',
      label: '天井賞',
      rank: 0,
      effect: 'gold',
      cardName: named(1, '（天井賞）'),
      cardImagePath: card(1).imagePath,
      rarity: card(1).rarity,
      quantity: ceilingQuantity(pack.ceilingAfter, pack.total),
      conversionValue: pack.price * 8,
      ceilingAfter: pack.ceilingAfter,
      ceilingOf: ['A', 'S'],
    });
  }
  return tiers;
}
