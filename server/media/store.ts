// Which media store the shop uses (decision 071): the bucket MEDIA_S3_BUCKET names, with this instance's
// copies of its /media images in front, or the disk under DATA_DIR (the embedded default, unchanged).
import type { MediaStore } from '#modules/kernel';
import type { ShopConfig } from '../config';
import { diskMediaStore } from './disk-store';
import { s3MediaStore, s3OptionsOf } from './s3-store';
import { sourceCopiesDir, withSourceCopies } from './source-copies';

/**
 * Opens the store the settings name; close it with the shop (its `close`).
 * @example const media = await openMediaStore(config); opened.add('media store', () => media.close())
 */
export async function openMediaStore(config: Parameters<typeof s3OptionsOf>[0] & Pick<ShopConfig, 'dataDir'>) {
  const options = s3OptionsOf(config);
  if (!options) return diskMediaStore(config.dataDir);
  return withSourceCopies(await s3MediaStore(options), sourceCopiesDir(config.dataDir));
}

const diskStores = new Map<string, MediaStore>();

/**
 * The store of a services object: the one the shop opened, or the disk under DATA_DIR where services
 * were built without one (tests, which then keep today's layout).
 * @example const store = mediaStoreOf(shop.services); await writeBannerImage(store, image)
 */
export function mediaStoreOf(services: { config: Pick<ShopConfig, 'dataDir'>; media?: MediaStore }): MediaStore {
  if (services.media) return services.media;
  let store = diskStores.get(services.config.dataDir);
  if (!store) diskStores.set(services.config.dataDir, (store = diskMediaStore(services.config.dataDir)));
  return store;
}
