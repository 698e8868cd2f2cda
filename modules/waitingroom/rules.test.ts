// The waiting room's pure rules: the estimate of the wait, the lots left in a window, the phone's key.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { estimateWaitSeconds, lotsLeftOf, phoneKeyOf } from './rules';
import { nextReadSeconds } from './reading';

describe('estimateWaitSeconds', () => {
  const queue = { batch: 50, windowSeconds: 180, admitted: 0, secondsSinceOrder: 0 };

  it('counts every window used to the end before the queue has a pace of its own', () => {
    expect(estimateWaitSeconds({ ...queue, ahead: 100 })).toBe(370);
    // Next in line still waits for a window to end.
    expect(estimateWaitSeconds({ ...queue, ahead: 0 })).toBe(10);
  });

  it('follows the pace the queue has kept since the order, never a slower one than the worst case', () => {
    // 1,050 admitted in 100 s (the first 50 at once): 10 a second.
    expect(estimateWaitSeconds({ ...queue, ahead: 599, admitted: 1_050, secondsSinceOrder: 100 })).toBe(60);
    // A slow start does not make the estimate worse than every window used to the end.
    expect(estimateWaitSeconds({ ...queue, ahead: 99, admitted: 50, secondsSinceOrder: 100 })).toBe(360);
  });
});

describe('lotsLeftOf', () => {
  it('is the cap less what the member drew, never below zero', () => {
    expect(lotsLeftOf(10, 3)).toBe(7);
    expect(lotsLeftOf(2, 5)).toBe(0);
    expect(lotsLeftOf(null, 0)).toBe(0);
  });
});

describe('phoneKeyOf', () => {
  it('is the same key for the same number and never the number itself', () => {
    expect(phoneKeyOf('+819012345678', 'secret-a')).toBe(phoneKeyOf('+819012345678', 'secret-a'));
    expect(phoneKeyOf('+８１９０-１２３４-５６７８', 'secret-a')).toBe(phoneKeyOf('+819012345678', 'secret-a'));
    expect(phoneKeyOf('+819012345678', 'secret-a')).not.toBe(phoneKeyOf('+819012345679', 'secret-a'));
    expect(phoneKeyOf('+819012345678', 'secret-a')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is keyed by the shop’s secret: hashing every number without it finds nothing', () => {
    expect(phoneKeyOf('+819012345678', 'secret-a')).not.toBe(phoneKeyOf('+819012345678', 'secret-b'));
    const plain = createHash('sha256').update('waiting-room:+819012345678').digest('hex');
    const bare = createHash('sha256').update('+819012345678').digest('hex');
    expect([plain, bare]).not.toContain(phoneKeyOf('+819012345678', 'secret-a'));
  });
});

describe('nextReadSeconds', () => {
  it('reads often near the front and in the window, rarely far back, and at the start before it', () => {
    expect(nextReadSeconds({ state: 'waiting', estimateSeconds: 10 })).toBe(3);
    expect(nextReadSeconds({ state: 'waiting', estimateSeconds: 60 })).toBe(15);
    expect(nextReadSeconds({ state: 'waiting', estimateSeconds: 3600 })).toBe(30);
    expect(nextReadSeconds({ state: 'admitted', estimateSeconds: null })).toBe(5);
    expect(nextReadSeconds({ state: 'registered', estimateSeconds: null }, 12)).toBe(12);
    expect(nextReadSeconds({ state: 'registered', estimateSeconds: null }, 0)).toBe(3);
  });
});
