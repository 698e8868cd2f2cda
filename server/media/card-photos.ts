// A graded card's photo kept as uploaded (issue 33 item 8): the pack page publishes its SHA-256, and anyone
// can fetch the file and hash it at any time, so the bytes are stored exactly as they came — never
// re-encoded, no metadata removed (the card image members see is the re-encoded copy, pack-images.ts).
// The name is the hash (media/originals/<sha256>.<ext>): the address says what the bytes are, never changes
// meaning, and is served immutable by /media. Because the file is public as it is, a photo that says where
// it was taken (GPS in its EXIF or XMP) is refused: the shop's address must not leak through a photo.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { MEDIA_STORE_UNAVAILABLE_MESSAGE, isMediaStoreUnavailable, type MediaStore } from '#modules/kernel';
import { MEDIA_MAX_PIXELS } from './pack-images';

/** The stored originals' formats: the extension of their name and the type /media answers with. */
export const ORIGINAL_FORMATS: Readonly<Record<string, { extension: string; contentType: string }>> = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  webp: { extension: 'webp', contentType: 'image/webp' },
};

export type StoredOriginal =
  { ok: true; path: string; sha256: string; bytes: number } | { ok: false; message: string; status: 413 | 422 | 503 };

/**
 * The SHA-256 of exactly these bytes, as the pack page shows it and `shasum -a 256` prints it.
 * @example sha256Hex(new TextEncoder().encode('abc')) // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Whether EXIF metadata (a TIFF structure, with or without its `Exif\0\0` prefix) holds a latitude or a
 * longitude: IFD0's GPS pointer (0x8825) to an IFD with GPSLatitude (2) or GPSLongitude (4). Metadata it
 * cannot read holds nothing it can see.
 * @example exifHasLocation((await sharp(jpeg).metadata()).exif!) // true for a phone's photo with location on
 */
export function exifHasLocation(exif: Uint8Array): boolean {
  try {
    const base = exif.length > 6 && Buffer.from(exif.subarray(0, 6)).toString('latin1') === 'Exif\0\0' ? 6 : 0;
    const view = new DataView(exif.buffer, exif.byteOffset + base, exif.byteLength - base);
    const order = view.getUint16(0);
    if (order !== 0x4949 && order !== 0x4d4d) return false;
    const little = order === 0x4949;
    const tagsOf = (ifd: number) => {
      const count = Math.min(view.getUint16(ifd, little), 512);
      return Array.from({ length: count }, (_, i) => ({
        tag: view.getUint16(ifd + 2 + i * 12, little),
        value: view.getUint32(ifd + 2 + i * 12 + 8, little),
      }));
    };
    const gps = tagsOf(view.getUint32(4, little)).find((entry) => entry.tag === 0x8825);
    return gps ? tagsOf(gps.value).some((entry) => entry.tag === 2 || entry.tag === 4) : false;
  } catch {
    return false;
  }
}

/**
 * Checks one upload (an image of an accepted format that decodes whole, within the size limit, without a
 * location) and stores its bytes unchanged under their hash; answers the site path and the SHA-256, or a
 * Japanese message for the form with its status (413/422 for the file, 503 when the store fails).
 * @example const original = await storeOriginalPhoto(store, bytes, { maxBytes: 8_000_000 })
 */
export async function storeOriginalPhoto(
  store: MediaStore,
  bytes: Uint8Array,
  options: { maxBytes: number },
): Promise<StoredOriginal> {
  if (bytes.byteLength === 0) return { ok: false, message: '画像ファイルを選んでください。', status: 422 };
  if (bytes.byteLength > options.maxBytes)
    return {
      ok: false,
      message: `画像が大きすぎます（${Math.floor(options.maxBytes / 1_000_000)}MBまで）。小さくしてからアップロードしてください。`,
      status: 413,
    };
  const input = { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'error' as const };
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, input).metadata();
    // The whole picture decodes (a cut-off file is refused now, not found broken by a member later).
    await sharp(bytes, input).stats();
  } catch {
    return {
      ok: false,
      message: '画像として読めないファイルです。JPEG・PNG・WebPの画像を選んでください。',
      status: 422,
    };
  }
  const format = metadata.format ? ORIGINAL_FORMATS[metadata.format] : undefined;
  if (!format) return { ok: false, message: '画像はJPEG・PNG・WebPのファイルにしてください。', status: 422 };
  const xmp = metadata.xmp ? Buffer.from(metadata.xmp).toString('utf8') : '';
  if ((metadata.exif && exifHasLocation(metadata.exif)) || /GPS(Latitude|Longitude)/.test(xmp))
    return {
      ok: false,
      message:
        'この写真には撮影場所（位置情報）が含まれています。鑑定品の写真は原本のまま公開されるため、位置情報を消してから（またはカメラの位置情報をオフにして撮り直して）アップロードしてください。',
      status: 422,
    };
  const sha256 = sha256Hex(bytes);
  const key = `media/originals/${sha256}.${format.extension}`;
  try {
    await store.put(key, bytes, format.contentType);
  } catch (error) {
    if (!isMediaStoreUnavailable(error)) throw error;
    return { ok: false, message: MEDIA_STORE_UNAVAILABLE_MESSAGE, status: 503 };
  }
  return { ok: true, path: `/${key}`, sha256, bytes: bytes.byteLength };
}
