// The reveal lands on the right prize, plays its effect, keeps a single card to 2–4 seconds and a
// multi-draw's grid to about a second more.
import { describe, it, expect } from 'vitest';
import {
  announcement,
  bestItem,
  effectFor,
  gridPace,
  LAST_CARD_PAUSE_MS,
  REVEAL_EFFECTS,
  revealOrder,
  revealTimeline,
  tierBadge,
} from './reveal-logic';
import { sampleRevealItems } from './samples';
import type { RevealEffect, RevealItem } from './types';

function item(prizeId: string, tierRank: number, effect: RevealEffect, extra: Partial<RevealItem> = {}): RevealItem {
  return {
    prizeId,
    tierLabel: `${tierRank}等`,
    effect,
    tierRank,
    cardName: `カード${prizeId}`,
    imagePath: `/demo/cards/${prizeId}.svg`,
    rarity: null,
    cardGrade: null,
    conversionValue: 100,
    isLastOne: false,
    ...extra,
  };
}

const ALL_EFFECTS: RevealEffect[] = ['lastone', 'rainbow', 'gold', 'silver', 'normal'];

describe('bestItem and effectFor', () => {
  it('picks the lowest tierRank wherever it sits in the draw order', () => {
    const items = [
      item('c1', 4, 'normal'),
      item('b1', 3, 'silver'),
      item('s1', 1, 'rainbow'),
      item('a1', 2, 'gold'),
      item('c2', 4, 'normal'),
    ];
    expect(bestItem(items).prizeId).toBe('s1');
    expect(effectFor(items)).toBe('rainbow');
    expect(bestItem(items.slice().reverse()).prizeId).toBe('s1');
  });

  it('lets the last one beat every tier, even when listed last', () => {
    const lastOne = item('lo', 0, 'lastone', { isLastOne: true, tierLabel: 'ラストワン賞' });
    const items = [item('s1', 1, 'rainbow'), item('a1', 2, 'gold'), lastOne];
    expect(bestItem(items)).toBe(lastOne);
    expect(effectFor(items)).toBe('lastone');
  });

  it('ranks the last one first even if its rank is not 0', () => {
    const lastOne = item('lo', 5, 'lastone', { isLastOne: true });
    expect(bestItem([item('s1', 1, 'rainbow'), lastOne])).toBe(lastOne);
  });

  it('keeps the first in draw order on a tie', () => {
    const first = item('a1', 2, 'gold');
    const second = item('a2', 2, 'silver');
    expect(bestItem([item('c', 4, 'normal'), first, second])).toBe(first);
    expect(effectFor([item('c', 4, 'normal'), first, second])).toBe('gold');
    expect(bestItem([second, first])).toBe(second);
    expect(effectFor([second, first])).toBe('silver');
  });

  it('handles a single item and rejects an empty draw', () => {
    const only = item('x', 3, 'silver');
    expect(bestItem([only])).toBe(only);
    expect(effectFor([only])).toBe('silver');
    expect(() => bestItem([])).toThrow();
    expect(effectFor([])).toBe('normal');
  });
});

describe('REVEAL_EFFECTS', () => {
  it('lists every effect once, most special first, with Japanese text', () => {
    expect(REVEAL_EFFECTS.map((e) => e.effect)).toEqual(ALL_EFFECTS);
    for (const entry of REVEAL_EFFECTS) {
      expect(entry.label).toMatch(/演出$/);
      expect(entry.description.length).toBeGreaterThan(10);
    }
  });
});

describe('revealTimeline', () => {
  it('lands a single card in 2 to 4 seconds, and turns a multi-draw grid within 5.5 seconds in all', () => {
    for (const effect of ALL_EFFECTS) {
      for (const count of [1, 2, 10, 100]) {
        const t = revealTimeline(effect, count);
        expect(t.landStart + t.landMs, `${effect} ×${count}`).toBeGreaterThanOrEqual(2000);
        expect(t.landStart + t.landMs, `${effect} ×${count}`).toBeLessThanOrEqual(4000);
        expect(t.totalMs, `${effect} ×${count}`).toBeLessThanOrEqual(count === 1 ? 4000 : 5500);
        expect(t.chargeStart).toBeLessThan(t.promotionStart);
        expect(t.promotionStart).toBeLessThanOrEqual(t.burstStart);
        expect(t.burstStart).toBeLessThan(t.landStart);
        expect(t.gridStart).toBe(t.landStart + t.landMs);
      }
    }
  });

  it('goes further up the colour steps the better the tier, promoting only the top two', () => {
    expect(revealTimeline('normal', 1).steps).toEqual(['blue']);
    expect(revealTimeline('silver', 1).steps).toEqual(['blue', 'green', 'silver']);
    expect(revealTimeline('gold', 1).steps).toEqual(['blue', 'green', 'red', 'gold']);
    expect(revealTimeline('rainbow', 1).promotion).toBe('rainbow');
    expect(revealTimeline('lastone', 1).promotion).toBe('lastone');
    expect(revealTimeline('gold', 1).promotion).toBeNull();
    expect(revealTimeline('normal', 1).totalMs).toBeLessThan(revealTimeline('gold', 1).totalMs);
    expect(revealTimeline('gold', 1).totalMs).toBeLessThan(revealTimeline('rainbow', 1).totalMs);
  });

  it('turns every card of a multi-draw in about a second, whatever its size', () => {
    expect(revealTimeline('gold', 1).totalMs).toBe(revealTimeline('gold', 1).gridStart);
    for (const count of [2, 10, 100, 300]) {
      const { staggerMs, flipMs } = gridPace(count);
      const timeline = revealTimeline('gold', count);
      const gridMs = timeline.totalMs - timeline.gridStart;
      // Every card but the best one in a wave, a pause, then the best one (decision 056).
      expect(timeline.lastPauseMs).toBe(LAST_CARD_PAUSE_MS);
      expect(gridMs).toBe(staggerMs * (count - 2) + LAST_CARD_PAUSE_MS + flipMs);
      const waveMs = gridMs - LAST_CARD_PAUSE_MS;
      expect(waveMs, `×${count}`).toBeGreaterThan(0);
      expect(waveMs, `×${count}`).toBeLessThanOrEqual(count <= 10 ? 1400 : 2100);
    }
  });
});

describe('revealOrder', () => {
  it('turns the cards in draw order, never best-first, the best one last', () => {
    const s = item('s', 1, 'rainbow', { position: 40 });
    const a = item('a', 2, 'gold', { position: 3 });
    const c1 = item('c1', 4, 'normal', { position: 17 });
    const c2 = item('c2', 4, 'normal', { position: 5 });
    // The draw answer lists the best tier first; the reveal does not.
    expect(revealOrder([s, a, c1, c2]).map((x) => x.prizeId)).toEqual(['a', 'c2', 'c1', 's']);
    const lastOne = item('lo', 0, 'lastone', { position: null, isLastOne: true });
    expect(revealOrder([lastOne, s, c1]).map((x) => x.prizeId)).toEqual(['c1', 's', 'lo']);
    // Without positions (the staff preview's samples) the given order holds, the best moved last.
    const [x, y, z] = [item('x', 4, 'normal'), item('y', 1, 'rainbow'), item('z', 3, 'silver')];
    expect(revealOrder([x, y, z]).map((card) => card.prizeId)).toEqual(['x', 'z', 'y']);
    expect(revealOrder([])).toEqual([]);
  });
});

describe('tierBadge', () => {
  it('fits the tier on a 100連 tile and a 10連 card at 12 px', () => {
    const badge = (tierLabel: string, isLastOne = false) => ({
      small: tierBadge({ tierLabel, isLastOne }, 'small'),
      large: tierBadge({ tierLabel, isLastOne }, 'large'),
    });
    expect(badge('S賞')).toEqual({ small: 'S賞', large: 'S賞' });
    expect(badge('SR賞')).toEqual({ small: 'SR賞', large: 'SR賞' });
    expect(badge('キリ番賞')).toEqual({ small: 'キリ', large: 'キリ番賞' });
    expect(badge('ラストワン賞', true)).toEqual({ small: 'LO', large: 'ラスト' });
    expect(badge('スペシャル賞').small).toBe('スペ');
  });
});

describe('announcement', () => {
  it('names the tier, the card and its rarity and grade', () => {
    const best = item('s', 1, 'rainbow', {
      tierLabel: 'S賞',
      cardName: '蒼炎のフェニックス',
      rarity: 'SAR',
      cardGrade: 'PSA10',
    });
    expect(announcement(best, 1)).toBe('S賞 獲得！「蒼炎のフェニックス」（SAR・PSA10）');
    expect(announcement({ ...best, rarity: null, cardGrade: null }, 10)).toBe(
      '10件の抽選結果。最高の賞は S賞 獲得！「蒼炎のフェニックス」',
    );
  });
});

describe('sampleRevealItems', () => {
  it('gives draws whose best prize plays the requested effect', () => {
    for (const effect of ALL_EFFECTS) {
      for (const count of [1, 10]) {
        const items = sampleRevealItems(effect, count);
        expect(items).toHaveLength(count);
        expect(effectFor(items)).toBe(effect);
        expect(new Set(items.map((i) => i.prizeId)).size).toBe(count);
        for (const i of items) expect(i.imagePath).toMatch(/^\/demo\/cards\/card-\d\d\.svg$/);
      }
    }
  });
});
