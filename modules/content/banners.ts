// Home banners: content documents of type 'banner' (docs/decisions/031). The operators' console
// (/admin/banners) lists, creates, edits, orders, switches on and off and schedules them; the home
// page shows those active and inside their window (compared at read time). The art is uploaded,
// sniffed by sharp (the name and the browser's type say nothing), cropped to the carousel's 12:5,
// re-encoded as WebP without metadata and stored in the media store (decision 071) under media/banners
// by its content hash, so a file's address never changes meaning and may be cached for a year. Banners stay rows of
// content_documents so that versioned editing of every document (issue 15) can take them over.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import {
  isWithinWindow,
  refineWindow,
  refuse,
  RefusalError,
  saleWindowFields,
  type MediaStore,
  type Refusal,
} from '#modules/kernel';
import { contentDocuments } from './schema';
import { safeLinkUrl, type BannerData } from './rich-text';
import { reencodeImage, writeHashedImage } from './hashed-image';

/** Refusals of the banner console (words in refusal-words.ts). */
export const BANNER_REFUSAL_CODES = [
  'BANNER_NOT_FOUND',
  'BANNER_IMAGE_REQUIRED',
  'BANNER_IMAGE_TOO_LARGE',
  'BANNER_IMAGE_TYPE',
] as const;
export type BannerRefusalCode = (typeof BANNER_REFUSAL_CODES)[number];

/** Largest upload accepted (the request body limit of /admin/banners leaves room for it and the fields). */
export const BANNER_IMAGE_MAX_BYTES = 8_000_000;
/** The stored art: the carousel's 12:5, wide enough for a 3x phone and a desktop column. */
export const BANNER_IMAGE_WIDTH = 1200;
export const BANNER_IMAGE_HEIGHT = 500;

/** Where uploaded art is served (server/media/route.ts), one immutable object per content hash. */
export const BANNER_IMAGE_PATH_PREFIX = '/media/banners/';

/**
 * Checks and re-encodes one upload (modules/content/hashed-image.ts): JPEG, PNG or WebP only, at most
 * BANNER_IMAGE_MAX_BYTES, cropped to the carousel's 12:5 around what draws the eye.
 * @example const prepared = await prepareBannerImage(bytes); if (!prepared.ok) return prepared
 */
export async function prepareBannerImage(
  bytes: Uint8Array,
): Promise<{ ok: true; image: Buffer } | Refusal<BannerRefusalCode>> {
  if (bytes.byteLength > BANNER_IMAGE_MAX_BYTES)
    return refuse('BANNER_IMAGE_TOO_LARGE', { maxBytes: BANNER_IMAGE_MAX_BYTES });
  const encoded = await reencodeImage(bytes, {
    width: BANNER_IMAGE_WIDTH,
    height: BANNER_IMAGE_HEIGHT,
    fit: 'cover',
    position: 'attention',
  });
  return encoded ? { ok: true, image: encoded.image } : refuse('BANNER_IMAGE_TYPE');
}

/**
 * Stores a prepared image by its content hash and answers its public path. The same art twice is one object.
 * @example const imagePath = await writeBannerImage(store, prepared.image) // '/media/banners/3f…e1.webp'
 */
export const writeBannerImage = (store: MediaStore, image: Buffer): Promise<string> =>
  writeHashedImage(store, 'banners', image);

/** A banner as the admin form writes it (the image comes separately, as an upload). */
export const bannerFormSchema = z
  .object({
    title: z
      .string({ error: 'タイトルを入力してください。' })
      .trim()
      .min(1, { error: 'タイトルを入力してください。' })
      .max(40, { error: 'タイトルは40文字以内で入力してください。' }),
    alt: z
      .string({ error: '画像の説明（代替テキスト）を入力してください。' })
      .trim()
      .min(1, { error: '画像の説明（代替テキスト）を入力してください。' })
      .max(120, { error: '画像の説明は120文字以内で入力してください。' }),
    link: z
      .string({ error: 'リンク先を入力してください。' })
      .trim()
      .min(1, { error: 'リンク先を入力してください。' })
      .max(500, { error: 'リンク先は500文字以内で入力してください。' })
      .transform((text, ctx) => {
        const safe = safeLinkUrl(text);
        if (!safe || (!safe.startsWith('/') && !safe.startsWith('https://'))) {
          ctx.addIssue({
            code: 'custom',
            message: 'リンク先はサイト内のパス（/で始まる）か https:// のURLで入力してください。',
          });
          return z.NEVER;
        }
        return safe;
      }),
    period: z
      .string()
      .trim()
      .max(40, { error: '期間の表示は40文字以内で入力してください。' })
      .optional()
      .transform((v) => v || null),
    order: z.coerce
      .number({ error: '表示順を入力してください。' })
      .int({ error: '表示順は整数で入力してください。' })
      .min(0, { error: '表示順は0以上です。' })
      .max(100_000, { error: '表示順は100,000までです。' }),
    active: z
      .string()
      .optional()
      .transform((v) => v === 'on'),
    ...saleWindowFields,
  })
  .superRefine(refineWindow);
export type BannerForm = z.output<typeof bannerFormSchema>;

/** A banner as stored in the document's data (older banners lack the console's fields). */
interface StoredBanner extends BannerData {
  alt?: string;
  active?: boolean;
  startsAt?: string | null;
  endsAt?: string | null;
}

/** A banner as the console shows it. */
export interface BannerAdminView {
  uid: string;
  title: string;
  alt: string;
  image: string;
  link: string;
  period: string | null;
  order: number;
  active: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** A stored banner's data as the console reads it (defaults for banners written before the console). */
export function bannerView(uid: string, stored: unknown): BannerAdminView {
  const data = stored as StoredBanner;
  return {
    uid,
    title: data.title,
    alt: data.alt ?? '',
    image: data.image,
    link: data.link,
    period: data.period ?? null,
    order: data.order,
    active: data.active ?? true,
    startsAt: data.startsAt ? new Date(data.startsAt) : null,
    endsAt: data.endsAt ? new Date(data.endsAt) : null,
  };
}

const byOrder = (a: BannerAdminView, b: BannerAdminView) => a.order - b.order || a.uid.localeCompare(b.uid);

/** Every banner, active or not, published or not, in the carousel's order. */
export async function listAllBanners(db: Database): Promise<BannerAdminView[]> {
  const rows = await db
    .select({ uid: contentDocuments.uid, data: contentDocuments.data })
    .from(contentDocuments)
    .where(eq(contentDocuments.type, 'banner'));
  return rows.map((row) => bannerView(row.uid, row.data)).sort(byOrder);
}

/** Whether members see a banner at `now`: active and inside its window. */
export const bannerShown = (banner: Pick<BannerAdminView, 'active' | 'startsAt' | 'endsAt'>, now: Date) =>
  banner.active && isWithinWindow(banner, now);

const dataOf = (banner: Omit<BannerAdminView, 'uid'>): StoredBanner => ({
  title: banner.title,
  alt: banner.alt,
  image: banner.image,
  link: banner.link,
  order: banner.order,
  ...(banner.period ? { period: banner.period } : {}),
  active: banner.active,
  startsAt: banner.startsAt?.toISOString() ?? null,
  endsAt: banner.endsAt?.toISOString() ?? null,
});

async function bannerRow(tx: Database, uid: string): Promise<BannerAdminView> {
  const [row] = await tx
    .select({ uid: contentDocuments.uid, data: contentDocuments.data })
    .from(contentDocuments)
    .where(and(eq(contentDocuments.type, 'banner'), eq(contentDocuments.uid, uid)))
    .for('update');
  if (!row) throw new RefusalError(refuse('BANNER_NOT_FOUND', { uid }));
  return bannerView(row.uid, row.data);
}

/**
 * Creates a banner (`uid` null; `image` required) or replaces one's fields (the image only when a new
 * one is given). Published at once: whether members see it is `active` and the window.
 * @example const { after } = await saveBanner(tx, { uid: null, form, image: '/media/banners/….webp' })
 */
export async function saveBanner(
  tx: Database,
  input: { uid: string | null; form: BannerForm; image: string | null },
): Promise<{ before: BannerAdminView | null; after: BannerAdminView }> {
  const before = input.uid ? await bannerRow(tx, input.uid) : null;
  const image = input.image ?? before?.image;
  if (!image) throw new RefusalError(refuse('BANNER_IMAGE_REQUIRED'));
  const uid = input.uid ?? `banner-${randomUUID()}`;
  const after: BannerAdminView = { uid, ...input.form, image };
  const data = dataOf(after);
  if (before)
    await tx
      .update(contentDocuments)
      .set({ data, updatedAt: new Date() })
      .where(and(eq(contentDocuments.type, 'banner'), eq(contentDocuments.uid, uid)));
  else await tx.insert(contentDocuments).values({ id: uid, type: 'banner', uid, data, publishedAt: new Date() });
  return { before, after };
}

/** Switches a banner on or off. */
export async function setBannerActive(
  tx: Database,
  uid: string,
  active: boolean,
): Promise<{ before: BannerAdminView; after: BannerAdminView }> {
  const before = await bannerRow(tx, uid);
  const after = { ...before, active };
  await tx
    .update(contentDocuments)
    .set({ data: dataOf(after), updatedAt: new Date() })
    .where(and(eq(contentDocuments.type, 'banner'), eq(contentDocuments.uid, uid)));
  return { before, after };
}

/**
 * Moves a banner one place up or down the carousel: the banners are numbered again 10, 20, 30… in
 * their new order (one console at a time: the rows are locked).
 * @example await moveBanner(tx, uid, 'up') // [{ uid, order: 10 }, …]
 */
export async function moveBanner(
  tx: Database,
  uid: string,
  direction: 'up' | 'down',
): Promise<{ uid: string; order: number }[]> {
  await tx
    .select({ id: contentDocuments.id })
    .from(contentDocuments)
    .where(eq(contentDocuments.type, 'banner'))
    .for('update');
  const all = await listAllBanners(tx);
  const index = all.findIndex((b) => b.uid === uid);
  if (index < 0) throw new RefusalError(refuse('BANNER_NOT_FOUND', { uid }));
  const other = direction === 'up' ? index - 1 : index + 1;
  if (other >= 0 && other < all.length) [all[index], all[other]] = [all[other]!, all[index]!];
  const changed: { uid: string; order: number }[] = [];
  for (const [position, banner] of all.entries()) {
    const order = (position + 1) * 10;
    if (banner.order === order) continue;
    await tx
      .update(contentDocuments)
      .set({ data: dataOf({ ...banner, order }), updatedAt: new Date() })
      .where(and(eq(contentDocuments.type, 'banner'), eq(contentDocuments.uid, banner.uid)));
    changed.push({ uid: banner.uid, order });
  }
  return changed;
}
