// The content editor's checks on a draft before a save (docs/decisions/040): the uid's form and reserved
// segments, the data's shape per type (safe links only), and a notice's body.
import { z } from 'zod';
import { refuse, RefusalError } from '#modules/kernel';
import {
  isRichTextFilled,
  safeLinkUrl,
  savableLinkUrl,
  SAVABLE_LINK_MESSAGE,
  unsavableLinkIn,
  type RichText,
} from './rich-text';
import type { NoticeData, PageData } from './source';
import type { ContentDraft, EditableContentType } from './versions';

/** One URL segment: lower-case letters, digits, '-' and '_' (the same rule getPublishedPage reads). */
const SEGMENT = '[a-z0-9][a-z0-9_-]{0,79}';
const PAGE_UID = new RegExp(`^${SEGMENT}(/${SEGMENT}){0,3}$`);
const SPECIAL_UID = new RegExp(`^${SEGMENT}$`);
const NOTICE_UID = new RegExp(`^${SEGMENT}$`);

/**
 * First path segments the app's own routes use (app/routes.ts and server/app.ts): a page there would
 * never be reached, or would hide a route. 'notices' belongs to notices.
 */
export const RESERVED_UID_SEGMENTS: ReadonlySet<string> = new Set([
  'auth',
  'app',
  'admin',
  'api',
  'gacha',
  'mypage',
  'myinbox',
  'mylevel',
  'myrank',
  'ranking',
  'r',
  'shop',
  'preview',
  'contact',
  'dev',
  'media',
  'images',
  'assets',
  'build',
  'builds',
  'sitemap.xml',
  'robots.txt',
  'notices',
  'sandbox',
  'favicon.ico',
  '_img',
  '_operator',
]);

/**
 * Checks a uid for its type; throws the refusal. Pages: up to 4 segments; special pages: one (they
 * live at /{specialId}); notices: one segment (they live at /notices/{uid}).
 */
export function checkContentUid(type: EditableContentType, uid: string): void {
  if (type === 'notice') {
    if (!NOTICE_UID.test(uid)) throw new RefusalError(refuse('CONTENT_UID_INVALID', { type, uid }));
    return;
  }
  const pattern = type === 'special' ? SPECIAL_UID : PAGE_UID;
  if (!pattern.test(uid)) throw new RefusalError(refuse('CONTENT_UID_INVALID', { type, uid }));
  const first = uid.split('/')[0]!;
  if (RESERVED_UID_SEGMENTS.has(first)) throw new RefusalError(refuse('CONTENT_UID_RESERVED', { uid, segment: first }));
}

const message = (text: string) => ({ error: text });
const linkUrlSchema = z
  .string()
  .trim()
  .max(500, message('リンク先は500文字以内で入力してください。'))
  .refine((url) => savableLinkUrl(url) !== null, message(SAVABLE_LINK_MESSAGE));
const richTextSchema = z
  .array(z.looseObject({ type: z.string() }), message('本文の形式が正しくありません。'))
  .max(2000, message('本文が長すぎます。'))
  .superRefine((blocks, ctx) => {
    const refused = unsavableLinkIn(blocks);
    if (refused)
      ctx.addIssue({ code: 'custom', message: `本文のリンク「${refused}」は使えません。${SAVABLE_LINK_MESSAGE}` });
  })
  .transform((blocks) => blocks as unknown as RichText);
const imageFieldSchema = z.object({
  url: linkUrlSchema,
  alt: z.string().trim().max(200, message('画像の説明は200文字以内で入力してください。')).nullable(),
  dimensions: z.object({ width: z.number().int().min(1).max(10_000), height: z.number().int().min(1).max(10_000) }),
});
const webLinkSchema = z.object({ link_type: z.literal('Web'), url: linkUrlSchema });
const tableRowSchema = z.object({
  cells: z
    .array(z.object({ type: z.enum(['header', 'data']), content: richTextSchema }))
    .min(1)
    .max(20, message('表の列は20列までです。')),
});
const sliceSchema = z.discriminatedUnion('slice_type', [
  z.object({ slice_type: z.literal('text'), primary: z.object({ text: richTextSchema }), items: z.array(z.never()) }),
  z.object({
    slice_type: z.literal('image'),
    primary: z.object({ image: imageFieldSchema, caption: z.string().max(200).nullable().optional() }),
    items: z.array(z.never()),
  }),
  z.object({
    slice_type: z.literal('embed'),
    primary: z.object({
      embed: z.object({
        embed_url: z
          .string()
          .trim()
          .max(500)
          .refine(
            (url) => /^https:\/\//.test(url) && safeLinkUrl(url) !== null,
            message('埋め込みのURLは https:// で始まるURLにしてください。'),
          ),
      }),
      caption: z.string().max(200).nullable().optional(),
    }),
    items: z.array(z.never()),
  }),
  z.object({
    slice_type: z.literal('table'),
    primary: z.object({
      table: z.object({
        head: z.object({ rows: z.array(tableRowSchema).max(1) }).optional(),
        body: z.object({ rows: z.array(tableRowSchema).max(100, message('表の行は100行までです。')) }),
      }),
      caption: z.string().max(200).nullable().optional(),
    }),
    items: z.array(z.never()),
  }),
  z.object({
    slice_type: z.literal('button'),
    primary: z.object({
      label: z
        .string()
        .trim()
        .min(1, message('ボタンの文言を入力してください。'))
        .max(60, message('ボタンの文言は60文字以内です。')),
      link: webLinkSchema,
    }),
    items: z.array(z.never()),
  }),
]);
const titleSchema = z
  .string()
  .trim()
  .min(1, message('タイトルを入力してください。'))
  .max(120, message('タイトルは120文字以内で入力してください。'));
const pageDataSchema = z.object({
  title: titleSchema,
  description: z.string().trim().max(300, message('説明は300文字以内で入力してください。')).optional(),
  heroImage: z.union([linkUrlSchema, imageFieldSchema]).optional(),
  footerNote: z.string().trim().max(200, message('フッターの表示は200文字以内で入力してください。')).optional(),
  body: richTextSchema,
  slices: z.array(sliceSchema).max(50, message('スライスは50個までです。')).optional(),
});
const isoInstant = z.iso.datetime({ offset: true }).nullable().optional();
const noticeDataSchema = z
  .object({
    title: titleSchema,
    body: richTextSchema,
    startsAt: isoInstant,
    endsAt: isoInstant,
    important: z.boolean().optional(),
  })
  .refine((n) => !n.startsAt || !n.endsAt || Date.parse(n.endsAt) > Date.parse(n.startsAt), {
    message: '表示終了は表示開始より後にしてください。',
  });
const tagsSchema = z
  .array(z.string().trim().min(1).max(40, message('タグは40文字以内です。')))
  .max(10, message('タグは10個までです。'));

/** What a notice without text (specification section 5: rich text counts only with text) is refused with. */
export const NOTICE_BODY_REQUIRED = '本文を入力してください。';

/** Throws CONTENT_INVALID for a notice whose body has no text (an image alone, spaces alone, nothing). */
export function checkNoticeBody(type: string, data: unknown): void {
  if (type !== 'notice') return;
  const body = (data as Partial<NoticeData> | null)?.body;
  if (!isRichTextFilled(body))
    throw new RefusalError(refuse('CONTENT_INVALID', { message: NOTICE_BODY_REQUIRED, path: 'body' }));
}

/**
 * Checks a draft for its type and answers it normalised; throws CONTENT_INVALID / the uid refusals.
 * A notice's body must have text, except in a new document's first version (`newDocument`): the list's
 * 新規作成 form asks only for the URL and title, and publishing checks the body again (publishLocked).
 */
export function checkContentDraft(
  type: EditableContentType,
  draft: ContentDraft,
  options: { newDocument?: boolean } = {},
): ContentDraft {
  checkContentUid(type, draft.uid);
  const tags = tagsSchema.safeParse(draft.tags);
  if (!tags.success) throw new RefusalError(refuse('CONTENT_INVALID', { message: tags.error.issues[0]?.message }));
  const data = (type === 'notice' ? noticeDataSchema : pageDataSchema).safeParse(draft.data);
  if (!data.success) {
    const issue = data.error.issues[0];
    throw new RefusalError(refuse('CONTENT_INVALID', { message: issue?.message, path: issue?.path.join('.') }));
  }
  if (!options.newDocument) checkNoticeBody(type, data.data);
  return { uid: draft.uid, tags: [...new Set(tags.data)], data: data.data as PageData | NoticeData };
}
