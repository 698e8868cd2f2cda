// Where uploaded images are kept (decision 071): DATA_DIR on this machine by default, or a bucket of any
// S3-compatible service (AWS S3, Cloudflare R2, MinIO) when MEDIA_S3_BUCKET is set, so that several
// instances share them. The bucket stays private: the shop serves /media itself.
import { z } from 'zod';
import { booleanFlag, declareSettings } from '#modules/kernel';

/** The S3 settings that mean nothing without a bucket: given alone, they are a typo or a forgotten line. */
const BUCKET_ONLY = [
  'MEDIA_S3_REGION',
  'MEDIA_S3_ENDPOINT',
  'MEDIA_S3_FORCE_PATH_STYLE',
  'MEDIA_S3_PREFIX',
  'MEDIA_S3_ACCESS_KEY_ID',
  'MEDIA_S3_SECRET_ACCESS_KEY',
] as const;

export const mediaSettings = declareSettings({
  title: 'Uploaded media',
  shape: {
    MEDIA_S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 of a-z, 0-9, dot and hyphen)')
      .optional(),
    MEDIA_S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'must be a region such as ap-northeast-1 (auto for Cloudflare R2)')
      .optional(),
    MEDIA_S3_ENDPOINT: z
      .string()
      .url()
      .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL')
      .optional(),
    MEDIA_S3_FORCE_PATH_STYLE: booleanFlag.optional(),
    MEDIA_S3_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/, 'must be a key prefix such as oripa/ (letters, digits, . _ - /)')
      .refine((v) => !v.split('/').some((part) => part === '.' || part === '..'), 'must not name . or ..')
      .optional(),
    MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).max(200).optional(),
    MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).max(200).optional(),
    MEDIA_S3_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
    MEDIA_CLEANUP_GRACE_HOURS: z.coerce.number().int().min(1).max(8760).default(168),
  },
  docs: {
    MEDIA_S3_BUCKET: {
      default: '(unset: `DATA_DIR/media` and `DATA_DIR/inquiries` on this machine)',
      meaning:
        'keep uploaded images (pack and card images, banners, content images, inquiry images) in this bucket of an ' +
        'S3-compatible service instead of on this machine, so every instance sees them; the bucket stays private (the ' +
        'shop serves `/media` itself). Moving existing images: `npm run shop -- media:upload-local` (docs/media.md)',
    },
    MEDIA_S3_REGION: {
      default: '`us-east-1`',
      meaning: "the bucket's region (`ap-northeast-1` for Tokyo on AWS; `auto` for Cloudflare R2)",
    },
    MEDIA_S3_ENDPOINT: {
      default: "(unset: AWS S3's own)",
      meaning:
        'the service for another S3-compatible provider: `https://<account id>.r2.cloudflarestorage.com` for ' +
        'Cloudflare R2, `http://minio.internal:9000` for MinIO',
    },
    MEDIA_S3_FORCE_PATH_STYLE: {
      default: '`false`',
      meaning: 'address the bucket as `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>`: `true` for MinIO',
    },
    MEDIA_S3_PREFIX: {
      default: '(unset: the bucket root)',
      meaning:
        'keep every key under this prefix (`oripa/` puts pack images at `oripa/media/packs/…`): one bucket, several shops',
    },
    MEDIA_S3_ACCESS_KEY_ID: {
      default:
        "(unset: the AWS SDK's own chain: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, an instance role)",
      meaning:
        'the access key for the bucket, with `MEDIA_S3_SECRET_ACCESS_KEY`; it needs to get, put, delete and list there only',
    },
    MEDIA_S3_SECRET_ACCESS_KEY: {
      default: '(unset: as `MEDIA_S3_ACCESS_KEY_ID`)',
      secret: true,
      meaning: "that access key's secret; keep it out of the repository",
    },
    MEDIA_S3_TIMEOUT_SECONDS: {
      meaning:
        'the longest one call to the bucket may take, retries included; slower, an upload is refused with 503 ' +
        '(画像の保存に失敗しました…) and nothing is recorded',
    },
    MEDIA_CLEANUP_GRACE_HOURS: {
      meaning:
        'the daily clean-up (media.cleanup) deletes an uploaded image that no pack, card, banner or content version ' +
        'names only once it is older than this, so an image uploaded into a form still being filled in is never lost',
    },
  },
  problems: (values) => {
    const problems: string[] = [];
    if (!values.MEDIA_S3_BUCKET)
      for (const name of BUCKET_ONLY)
        if (values[name] !== undefined) problems.push(`${name}: set MEDIA_S3_BUCKET too, or remove it`);
    if ((values.MEDIA_S3_ACCESS_KEY_ID === undefined) !== (values.MEDIA_S3_SECRET_ACCESS_KEY === undefined))
      problems.push('MEDIA_S3_ACCESS_KEY_ID: set it and MEDIA_S3_SECRET_ACCESS_KEY together, or neither');
    return problems;
  },
});
