// The reads a live stream opens with, shared by the streams opened within OPENING_READ_REUSE_MS (server/live.ts):
// one read serves them all, a notification's value replaces it, a dropped or failed read is read again.
import { describe, it, expect } from 'vitest';
import { createOpeningReads, OPENING_READ_REUSE_MS } from './live';

describe('opening reads', () => {
  it('shares one read within the window and reads again after it', async () => {
    let now = 1_000;
    const reads = createOpeningReads(() => now);
    let count = 0;
    const read = async () => ++count;
    expect(await reads.reuse('remaining:a', read)).toBe(1);
    now += OPENING_READ_REUSE_MS - 1;
    expect(await reads.reuse('remaining:a', read)).toBe(1);
    // Another key is its own read.
    expect(await reads.reuse('remaining:b', read)).toBe(2);
    now += 1;
    expect(await reads.reuse('remaining:a', read)).toBe(3);
  });

  it('serves a notification’s value, and reads again once a key is dropped', async () => {
    const now = 5_000;
    const reads = createOpeningReads(() => now);
    let count = 0;
    const read = async () => ++count;
    expect(await reads.reuse('wins:a', read)).toBe(1);
    reads.set('wins:a', 42);
    expect(await reads.reuse('wins:a', read)).toBe(42);
    reads.drop('wins:a');
    expect(await reads.reuse('wins:a', read)).toBe(2);
  });

  it('does not share a failed read', async () => {
    const reads = createOpeningReads(() => 0);
    await expect(reads.reuse('pack:a', () => Promise.reject(new Error('database away')))).rejects.toThrow('away');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await reads.reuse('pack:a', async () => true)).toBe(true);
  });
});
