// `npm run shop -- media:upload-local` as an operator runs it (a Node process), against a real
// S3-protocol server (s3rver in a child process): the images under DATA_DIR/media and DATA_DIR/inquiries
// go to the bucket under the same keys, a write that never finished does not; a second run sends only
// what the bucket lacks; --dry-run sends nothing; without MEDIA_S3_BUCKET it refuses in Japanese with exit
// code 2. It needs no database: nothing is opened or claimed (decision 071, docs/media.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MediaStore } from '#modules/kernel';
import { s3MediaStore } from '#server/media/index';
import { scaledTimeout } from '#tests/settings';
import { TEST_S3_CREDENTIALS, startTestS3, type TestS3 } from '#tests/s3-server';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
let s3: TestS3;
let bucket: MediaStore;
let dataDir: string;

beforeAll(async () => {
  s3 = await startTestS3();
  bucket = await s3MediaStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    prefix: 'moved/',
    credentials: TEST_S3_CREDENTIALS,
    timeoutMs: 10_000,
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-upload-local-'));
});
afterAll(async () => {
  await bucket?.close();
  await s3?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the command line with only these settings (no DATABASE_URL: it must not need one). */
const shop = (args: string[], settings: Record<string, string>, dir = dataDir) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', 'shop', 'index.ts'), ...args],
      {
        cwd: root,
        // Loading the command line takes half a minute on a busy 2-core machine.
        timeout: scaledTimeout(120_000),
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, LOG_LEVEL: 'silent', ...settings },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });

const write = (key: string, bytes: number) => {
  const file = path.join(dataDir, ...key.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(bytes, 7));
};

const keysInBucket = async () => {
  const keys: string[] = [];
  for (const prefix of ['media/', 'inquiries/']) for await (const object of bucket.list(prefix)) keys.push(object.key);
  return keys.sort();
};

describe('media:upload-local', () => {
  it(
    'copies DATA_DIR’s images into the bucket under the same keys, only what it lacks, and never without a bucket',
    async () => {
      const keys = [
        'media/packs/0f9c2a8e-1d4b-4c3e-9f7a-2b5c8d1e6f40.webp',
        'media/banners/0123456789abcdef0123456789abcdef.webp',
        'media/content/fedcba9876543210fedcba9876543210.webp',
        'inquiries/2026/11/6b1f0c3a-5e2d-4a7b-8c9d-0e1f2a3b4c5d.webp',
        'inquiries/2026/11/6b1f0c3a-5e2d-4a7b-8c9d-0e1f2a3b4c5d-thumb.webp',
      ];
      for (const key of keys) write(key, 100);
      write('media/packs/0f9c2a8e-1d4b-4c3e-9f7a-2b5c8d1e6f40.webp.1234.tmp', 10); // never finished
      const settings = s3.settings(s3.endpoint, { MEDIA_S3_PREFIX: 'moved' });

      // Without a bucket (its own DATA_DIR), beside the first real run.
      const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'media-upload-none-'));
      const [first, noBucket] = await Promise.all([
        shop(['media:upload-local'], settings),
        shop(['media:upload-local'], {}, elsewhere),
      ]);
      expect(first, first.stderr).toMatchObject({ code: 0 });
      expect(JSON.parse(first.stdout)).toEqual({ uploaded: 5, alreadyInBucket: 0, bytes: 500, dryRun: false });
      expect(await keysInBucket()).toEqual([...keys].sort());
      expect(await bucket.get(keys[0]!)).toEqual(new Uint8Array(Buffer.alloc(100, 7)));

      // Uploaded on the disk meanwhile: the next run sends that one only; --dry-run sends nothing.
      write('media/packs/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.webp', 50);
      const dry = await shop(['media:upload-local', '--dry-run'], settings);
      expect(JSON.parse(dry.stdout)).toEqual({ uploaded: 1, alreadyInBucket: 5, bytes: 50, dryRun: true });
      expect(await keysInBucket()).toHaveLength(5);
      const second = await shop(['media:upload-local'], settings);
      expect(JSON.parse(second.stdout)).toEqual({ uploaded: 1, alreadyInBucket: 5, bytes: 50, dryRun: false });
      expect(await keysInBucket()).toHaveLength(6);

      expect(noBucket.code).toBe(2);
      expect(noBucket.stderr).toContain('MEDIA_S3_BUCKET が設定されていません');
      expect(noBucket.stderr).toContain('media:upload-local [--dry-run]'); // the usage names it
      fs.rmSync(elsewhere, { recursive: true, force: true });
      // Nothing was opened: no embedded database, no claim on it.
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'operator.json'))).toBe(false);
    },
    scaledTimeout(300_000),
  );
});
