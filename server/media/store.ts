// Which media store the shop uses (decision 071): the bucket MEDIA_S3_BUCKET names, with this instance's
// copies of its /media images in front, or the disk under DATA_DIR (the embedded default, unchanged).
import { isMediaStoreUnavailable, type MediaStore } from '#modules/kernel';
import type { ShopConfig } from '../config';
import { diskMediaStore } from './disk-store';
import { s3MediaStore, s3OptionsOf } from './s3-store';
import { sourceCopiesDir, withSourceCopies } from './source-copies';

type Warner = { warn(object: object, message: string): void };

/**
 * Opens the store the settings name; close it with the shop (its `close`). Each failure of the store is
 * logged once, here, with its reason (the key, the bucket, what the service said); the callers answer 503.
 * @example const media = await openMediaStore(config, logger); opened.add('media store', () => media.close())
 */
export async function openMediaStore(
  config: Parameters<typeof s3OptionsOf>[0] & Pick<ShopConfig, 'dataDir'>,
  logger?: Warner,
): Promise<MediaStore> {
  const options = s3OptionsOf(config);
  const store = options
    ? withSourceCopies(await s3MediaStore(options), sourceCopiesDir(config.dataDir))
    : diskMediaStore(config.dataDir);
  return logger ? withFailureLog(store, logger) : store;
}

/**
 * Says in the log whether the bucket answers at start; never stops the start (pages need the bucket only
 * for uploads and images not yet copied locally).
 * @example reportBucketAtStart(media, config.MEDIA_S3_BUCKET, logger)
 */
export function reportBucketAtStart(
  media: MediaStore,
  bucket: string | undefined,
  logger: Warner & { info(object: object, message: string): void },
): void {
  if (media.kind !== 's3') return;
  void media.exists('media/start-up-check.webp').then(
    () => logger.info({ bucket }, 'media store: bucket answers'),
    (error: unknown) => logger.warn({ err: error, bucket }, 'media store: bucket does not answer'),
  );
}

/** `store`, logging each MediaStoreUnavailable before it goes on to the caller. */
function withFailureLog(store: MediaStore, logger: Warner): MediaStore {
  const log = (error: unknown) => {
    if (isMediaStoreUnavailable(error)) logger.warn({ err: error, store: store.kind }, 'media store unavailable');
  };
  const logged = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      log(error);
      throw error;
    }
  };
  return {
    kind: store.kind,
    put: (key, bytes, contentType) => logged(store.put(key, bytes, contentType)),
    get: (key) => logged(store.get(key)),
    exists: (key) => logged(store.exists(key)),
    delete: (key) => logged(store.delete(key)),
    async *list(prefix) {
      try {
        yield* store.list(prefix);
      } catch (error) {
        log(error);
        throw error;
      }
    },
    close: () => store.close(),
  };
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
