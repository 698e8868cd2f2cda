// The media settings (decision 071): none means the disk, as before; a bucket's settings are read as
// given; an S3 setting without a bucket, half a key pair or a malformed value stops the start, naming it,
// and the secret is never printed.
import { afterAll, describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config';
import { s3OptionsOf } from '../media/s3-store';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-media-settings-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });

describe('the media settings', () => {
  it('keep the disk without a bucket, and read a bucket as given', () => {
    expect(s3OptionsOf(config({}))).toBeNull();
    expect(config({}).MEDIA_CLEANUP_GRACE_HOURS).toBe(168);
    expect(
      s3OptionsOf(
        config({
          MEDIA_S3_BUCKET: 'oripa-media',
          MEDIA_S3_REGION: 'auto',
          MEDIA_S3_ENDPOINT: 'https://0123.r2.cloudflarestorage.com',
          MEDIA_S3_PREFIX: 'shop/a/',
          MEDIA_S3_ACCESS_KEY_ID: 'key',
          MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
          MEDIA_S3_TIMEOUT_SECONDS: '5',
        }),
      ),
    ).toEqual({
      bucket: 'oripa-media',
      region: 'auto',
      endpoint: 'https://0123.r2.cloudflarestorage.com',
      forcePathStyle: false,
      prefix: 'shop/a/',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      timeoutMs: 5000,
    });
    // No key pair: the SDK's own chain (AWS_ACCESS_KEY_ID…, a profile, an instance role); AWS's region default.
    expect(s3OptionsOf(config({ MEDIA_S3_BUCKET: 'oripa-media' }))).toMatchObject({
      region: 'us-east-1',
      credentials: undefined,
      prefix: '',
    });
  });

  it('stop the start on a setting without its bucket, half a key pair, or a malformed value', () => {
    expect(() => config({ MEDIA_S3_ENDPOINT: 'http://minio:9000' })).toThrow(
      /MEDIA_S3_ENDPOINT: set MEDIA_S3_BUCKET too/,
    );
    expect(() => config({ MEDIA_S3_BUCKET: 'oripa-media', MEDIA_S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /MEDIA_S3_ACCESS_KEY_ID: set it and MEDIA_S3_SECRET_ACCESS_KEY together/,
    );
    expect(() => config({ MEDIA_S3_BUCKET: 'Oripa_Media' })).toThrow(/MEDIA_S3_BUCKET/);
    expect(() => config({ MEDIA_S3_BUCKET: 'oripa-media', MEDIA_S3_PREFIX: '../other' })).toThrow(/MEDIA_S3_PREFIX/);
    expect(() => config({ MEDIA_S3_TIMEOUT_SECONDS: '0' })).toThrow(/MEDIA_S3_TIMEOUT_SECONDS/);
    let message = '';
    try {
      config({
        MEDIA_S3_BUCKET: 'oripa-media',
        MEDIA_S3_ACCESS_KEY_ID: 'key',
        MEDIA_S3_SECRET_ACCESS_KEY: '' + 'x'.repeat(300),
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('MEDIA_S3_SECRET_ACCESS_KEY=(hidden)');
    expect(message).not.toContain('xxxx');
  });
});
