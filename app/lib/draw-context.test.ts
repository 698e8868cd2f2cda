// The draw carried through the coin shop: the links built from it (the server's check is in draw-context.db.test.ts).
import { describe, it, expect } from 'vitest';
import { continueDrawLabel, drawContextQuery, packDrawPath, withDrawContext } from './draw-context';

describe('links of a carried draw', () => {
  it('adds the draw to a path, and nothing without one', () => {
    expect(withDrawContext('/shop', { gachaId: 'p-1', count: 10 })).toBe('/shop?gacha=p-1&count=10');
    expect(withDrawContext('/shop/checkout/sandbox?pack=coin-500', { gachaId: 'p-1', count: 100 })).toBe(
      '/shop/checkout/sandbox?pack=coin-500&gacha=p-1&count=100',
    );
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
