// images.cache-cleanup on a temp folder laid out like the resizer's cache, with files aged by fs.utimes.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config';
import type { Database } from '#db/client';
import { cleanImageCache, imageCacheCleanupJob } from './image-cache-cleanup';
import { shopJobs } from './index';
import { capturingLogger } from './test-support';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-21T03:00:00Z');
let dir: string;

/** Writes `<dir>/<prefix>/<name>` of `size` bytes, last modified `ageDays` before `now`. */
function cached(name: string, size: number, ageDays: number): string {
  const file = path.join(dir, name.slice(0, 2), name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(size, 1));
  const time = new Date(now.getTime() - ageDays * DAY);
  fs.utimesSync(file, time, time);
  return file;
}

const exists = (file: string) => fs.existsSync(file);

beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-image-cache-')), 'cache', 'images');
});
afterEach(() => {
  fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
});

describe('cleanImageCache', () => {
  it('deletes files last written more than 30 days ago and keeps the rest', async () => {
    const old = cached('aa11.avif', 100, 31);
    const older = cached('bb22.webp', 100, 400);
    const recent = cached('aa33.avif', 100, 29);
    const fresh = cached('cc44.png', 100, 0);
    const result = await cleanImageCache({ dir, maxAgeMs: 30 * DAY, maxBytes: 1024 * 1024, now });
    expect(result).toEqual({ deletedOld: 2, deletedForSize: 0, remainingBytes: 200 });
    expect([old, older].map(exists)).toEqual([false, false]);
    expect([recent, fresh].map(exists)).toEqual([true, true]);
  });

  it('then deletes the oldest files until the folder is under the cap', async () => {
    const a = cached('aa01.avif', 400, 10); // oldest
    const b = cached('bb02.avif', 400, 5);
    const c = cached('cc03.avif', 400, 2);
    const d = cached('dd04.avif', 400, 1); // newest
    // 1600 bytes, cap 900: the two oldest go (800 left).
    const result = await cleanImageCache({ dir, maxAgeMs: 30 * DAY, maxBytes: 900, now });
    expect(result).toEqual({ deletedOld: 0, deletedForSize: 2, remainingBytes: 800 });
    expect([a, b, c, d].map(exists)).toEqual([false, false, true, true]);
  });

  it('leaves a folder already under the cap alone, and a missing folder is no error', async () => {
    const a = cached('aa01.avif', 300, 1);
    expect(await cleanImageCache({ dir, maxAgeMs: 30 * DAY, maxBytes: 300, now })).toEqual({
      deletedOld: 0,
      deletedForSize: 0,
      remainingBytes: 300,
    });
    expect(exists(a)).toBe(true);
    expect(await cleanImageCache({ dir: path.join(dir, 'nope'), maxAgeMs: 30 * DAY, maxBytes: 1, now })).toEqual({
      deletedOld: 0,
      deletedForSize: 0,
      remainingBytes: 0,
    });
  });
});

describe('images.cache-cleanup job', () => {
  it('is daily, runs on every instance, and reports the files it deleted as processed', async () => {
    cached('aa01.avif', 500, 45); // too old
    cached('bb02.avif', 500, 3); // over the cap (600 bytes): oldest of the two left
    const keep = cached('cc03.avif', 500, 1);
    const job = imageCacheCleanupJob({ cacheDir: dir, maxBytes: 600 });
    expect(job).toMatchObject({ name: 'images.cache-cleanup', cron: '30 4 * * *', scope: 'instance' });
    const result = await job.handler({ db: {} as Database, logger: capturingLogger().logger, now });
    expect(result).toEqual({ processed: 2 });
    expect(exists(keep)).toBe(true);
  });

  it('is in the shop list, on DATA_DIR/cache/images with IMAGE_CACHE_MAX_MB as the cap', () => {
    const dataDir = path.dirname(path.dirname(dir));
    const config = loadConfig({ DATA_DIR: dataDir, IMAGE_CACHE_MAX_MB: '2', AUTH_SECRET: 'x'.repeat(40) });
    expect(config.IMAGE_CACHE_MAX_MB).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(40) })).toMatchObject({
      IMAGE_CACHE_MAX_MB: 1024,
      JOBS_ENABLED: true,
    });
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(40), JOBS_ENABLED: 'false' }).JOBS_ENABLED).toBe(
      false,
    );
    const jobs = shopJobs({ config });
    expect(jobs.map((job) => job.name)).toContain('images.cache-cleanup');
    expect(new Set(jobs.map((job) => job.name)).size).toBe(jobs.length);
  });

  it('cleans the folder the resizer writes to (checked through the shop list)', async () => {
    const dataDir = path.dirname(path.dirname(dir));
    const stale = cached('ee05.avif', 10, 0);
    const sixtyDaysAgo = new Date(Date.now() - 60 * DAY);
    fs.utimesSync(stale, sixtyDaysAgo, sixtyDaysAgo); // aged against the real clock: the job reads it
    const config = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(40) });
    const job = shopJobs({ config }).find((candidate) => candidate.name === 'images.cache-cleanup');
    expect(await job?.handler({ db: {} as Database, logger: capturingLogger().logger, now: new Date() })).toEqual({
      processed: 1,
    });
    expect(exists(stale)).toBe(false);
  });
});
