// media:upload-local: copies the uploaded images this machine keeps under DATA_DIR (media/ and
// inquiries/) into the bucket the settings name (MEDIA_S3_BUCKET…), under the same keys, so a shop moving
// from its disk to a bucket keeps every image at its address (decision 071, docs/media.md). Only what the
// bucket lacks is sent: run it before switching, and again after, for what was uploaded in between.
// Nothing is deleted on either side.
import { diskMediaStore } from '#server/media/index';
import { UsageError } from '../args';
import type { OfflineShopCommand } from '../command';

/** The folders of DATA_DIR that hold uploads (the /media ones and the inquiries' images). */
export const LOCAL_MEDIA_FOLDERS = ['media/', 'inquiries/'] as const;

export const mediaUploadLocal: OfflineShopCommand = {
  name: 'media:upload-local',
  usage: '[--dry-run]（DATA_DIR の画像を MEDIA_S3_BUCKET のバケットへコピー）',
  options: { 'dry-run': { type: 'boolean' } },
  offline: true,
  async run({ out, media, dataDir }, { values }) {
    if (media.kind !== 's3')
      throw new UsageError(
        'MEDIA_S3_BUCKET が設定されていません。コピー先のバケットの設定（MEDIA_S3_*）を付けて実行してください。',
      );
    const dryRun = values['dry-run'] === true;
    const local = diskMediaStore(dataDir);
    let uploaded = 0;
    let present = 0;
    let bytes = 0;
    for (const folder of LOCAL_MEDIA_FOLDERS) {
      // One listing of the bucket instead of a question per image.
      const inBucket = new Set<string>();
      for await (const object of media.list(folder)) inBucket.add(object.key);
      for await (const object of local.list(folder)) {
        if (object.key.endsWith('.tmp')) continue; // a write that never finished
        if (inBucket.has(object.key)) {
          present++;
          continue;
        }
        if (!dryRun) {
          const content = await local.get(object.key);
          if (!content) continue; // removed meanwhile (a clean-up, an erasure)
          await media.put(object.key, content, 'image/webp');
        }
        uploaded++;
        bytes += object.size;
      }
    }
    out(JSON.stringify({ uploaded, alreadyInBucket: present, bytes, dryRun }));
  },
};
