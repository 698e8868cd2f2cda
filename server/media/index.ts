// Uploaded media (decision 071): the store (disk or bucket), the pack editor's uploads (graded cards'
// photos also kept as uploaded), the /media route and the clean-up of uploads nothing names.
export { openMediaStore, mediaStoreOf, reportBucketAtStart } from './store';
export { diskMediaStore } from './disk-store';
export { s3MediaStore, s3OptionsOf, type S3MediaStoreOptions } from './s3-store';
export { withSourceCopies, sourceCopiesDir } from './source-copies';
export { createMediaRoute, servedMediaKey, MEDIA_FOLDERS } from './route';
export { cleanUpMedia, mediaNamesInUse, type MediaCleanupResult } from './cleanup';
export {
  MEDIA_EDGE,
  MEDIA_MAX_PIXELS,
  discardUploadedImage,
  siteImageExists,
  storeUploadedImage,
  type StoredImage,
} from './pack-images';
export { ORIGINAL_FORMATS, exifHasLocation, sha256Hex, storeOriginalPhoto, type StoredOriginal } from './card-photos';
