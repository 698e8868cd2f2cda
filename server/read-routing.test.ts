// The replica's lag as the shop measures it (decision 075): samples of the primary's WAL position with
// the time each was read, against the position the replica has replayed; and the write mark.
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { LagTracker, lastWriteOf, markWrites, primaryOnly, type ReadRouting } from './read-routing';
import { lsnValue } from '#db/replica';
import type { Database } from '#db/client';

describe('LagTracker', () => {
  it('knows nothing before the replica answers', () => {
    const tracker = new LagTracker();
    tracker.primary(100n, 1_000);
    expect(tracker.lagSeconds(1_500)).toBeNull();
    expect(tracker.holdsCommitsBefore()).toBeNull();
  });

  it('measures from the newest primary sample the replica has replayed', () => {
    const tracker = new LagTracker();
    tracker.primary(100n, 1_000);
    tracker.primary(200n, 2_000);
    tracker.primary(300n, 3_000);
    tracker.replica(250n);
    expect(tracker.holdsCommitsBefore()).toBe(2_000);
    expect(tracker.lagSeconds(3_500)).toBe(1.5);
    tracker.replica(300n);
    expect(tracker.lagSeconds(3_500)).toBe(0.5);
  });

  it('reads an idle primary (no new WAL) as no lag at all', () => {
    const tracker = new LagTracker();
    for (let at = 1_000; at <= 10_000; at += 1_000) tracker.primary(500n, at);
    tracker.replica(500n);
    expect(tracker.lagSeconds(10_000)).toBe(0);
  });

  it('lets the lag grow while the replica stands still (replay paused, link cut)', () => {
    const tracker = new LagTracker();
    tracker.primary(100n, 1_000);
    tracker.replica(100n);
    tracker.primary(180n, 2_000);
    tracker.primary(260n, 3_000);
    tracker.replica(100n);
    expect(tracker.lagSeconds(9_000)).toBe(8);
  });

  it('never moves backwards when a later answer names an older position', () => {
    const tracker = new LagTracker();
    tracker.primary(100n, 1_000);
    tracker.primary(200n, 2_000);
    tracker.replica(200n);
    tracker.replica(150n);
    expect(tracker.holdsCommitsBefore()).toBe(2_000);
  });

  it('reports at least the age of its oldest sample when the replica is behind all of them, and holds nothing', () => {
    const tracker = new LagTracker();
    tracker.primary(100n, 1_000);
    tracker.primary(200n, 2_000);
    tracker.replica(50n);
    expect(tracker.lagSeconds(5_000)).toBe(4);
    expect(tracker.holdsCommitsBefore()).toBeNull();
  });

  it('forgets the lag when the replica stops answering or is not a standby', () => {
    const tracker = new LagTracker();
    tracker.primary(100n, 1_000);
    tracker.replica(100n);
    tracker.replica(null);
    expect(tracker.lagSeconds(1_000)).toBeNull();
  });
});

describe('WAL positions', () => {
  it('orders them as PostgreSQL does (high word, then low word)', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(() => lsnValue('16B3748')).toThrow(RangeError);
  });
});

describe('the write mark', () => {
  const routing: ReadRouting = {
    ...primaryOnly({} as Database),
    writeMarker: () => 'shop_wrote=123; Path=/; Max-Age=7; HttpOnly; Secure; SameSite=Lax',
  };
  const app = new Hono();
  app.use(markWrites(routing));
  app.all('/x', (c) => c.text('ok'));

  it('marks a browser that changed something, and no other', async () => {
    const posted = await app.request('/x', { method: 'POST' });
    expect(posted.headers.getSetCookie()).toEqual([
      'shop_wrote=123; Path=/; Max-Age=7; HttpOnly; Secure; SameSite=Lax',
    ]);
    expect((await app.request('/x')).headers.getSetCookie()).toEqual([]);
    expect((await app.request('/x', { method: 'HEAD' })).headers.getSetCookie()).toEqual([]);
  });

  it('sets nothing without a replica', async () => {
    const plain = new Hono();
    plain.use(markWrites(primaryOnly({} as Database)));
    plain.post('/x', (c) => c.text('ok'));
    expect((await plain.request('/x', { method: 'POST' })).headers.getSetCookie()).toEqual([]);
  });

  it('reads the mark only when it is a plain number', () => {
    expect(lastWriteOf('1796000000000')).toBe(1_796_000_000_000);
    expect(lastWriteOf(undefined)).toBeNull();
    expect(lastWriteOf('1e12')).toBeNull();
    expect(lastWriteOf('-5')).toBeNull();
  });
});
