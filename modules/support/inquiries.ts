// Inquiries from the contact form (issue 13): one input schema for the page and any API, the member's
// own orders, draws and shipping requests an inquiry may name (ownership checked again when posted),
// and createInquiry: the inquiry, its first message, its images and the acknowledgement mail in one
// transaction, with the images written to the media store before it and removed when it does not commit.
import { randomInt, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '#db/client';
import { describeDraws, listRecentDraws } from '#modules/draw';
import { emailSchema } from '#modules/identity';
import {
  isMediaStoreUnavailable,
  refuse,
  type MediaStore,
  type MediaStoreRefusalCode,
  type Refusal,
} from '#modules/kernel';
import { isMailRecipient, type SiteIdentity } from '#modules/messaging';
import { getOrder, listOrders, yen } from '#modules/payments';
import { SHIPPING_STATUS_LABELS, describeShippingRequests, listShippingRequests } from '#modules/shipping';
import { writeInquiryImages, type InquiryImageRefusalCode, type PreparedImage } from './images';
import { notifyInquirer } from './notices';
import {
  inquiries,
  inquiryAttachments,
  inquiryCategories,
  inquiryMessages,
  inquiryRelatedKinds,
  type InquiryRelatedKind,
} from './schema';
import { INQUIRY_LIMITS, INQUIRY_RELATED_KIND_LABELS } from './words';

/** What the support module is given, built once from the settings (server/support.ts). */
export interface SupportRules {
  site: SiteIdentity;
  /** Where attached images are kept (the media store, under inquiries/: never served at /media). */
  attachments: MediaStore;
  /** The largest upload taken per image, before re-encoding (CONTACT_IMAGE_MAX_BYTES). */
  imageMaxBytes: number;
}

/** Refusals of the contact form and the desk (words in refusal-words.ts). */
export const INQUIRY_REFUSAL_CODES = [
  'INQUIRY_NOT_FOUND',
  'INQUIRY_RELATED_NOT_FOUND',
  'INQUIRY_RATE_LIMITED',
  'INQUIRY_CAPTCHA_REQUIRED',
  'INQUIRY_CAPTCHA_INVALID',
  'INQUIRY_SPAM',
  'INQUIRY_ASSIGNEE_INVALID',
  'INQUIRY_TEMPLATE_NOT_FOUND',
] as const;
export type InquiryRefusalCode = (typeof INQUIRY_REFUSAL_CODES)[number];

/** A related item as the form posts it: `order:<id>`, `draw:<id>`, `shipping_request:<id>`, or nothing. */
const relatedField = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((value, context) => {
    if (!value) return undefined;
    const [kind, id, ...rest] = value.split(':');
    if (rest.length || !id || !(inquiryRelatedKinds as readonly string[]).includes(kind ?? '')) {
      context.addIssue({ code: 'custom', message: '関連するご利用を選び直してください。' });
      return z.NEVER;
    }
    return { kind: kind as InquiryRelatedKind, id };
  });

/** The contact form's one input (the page's action and any API alike). */
export const inquiryInputSchema = z.object({
  category: z.enum(inquiryCategories, { error: 'お問い合わせの種類を選んでください。' }),
  email: emailSchema.refine(isMailRecipient, { error: 'このメールアドレスにはお送りできません。' }),
  subject: z
    .string({ error: '件名を入力してください。' })
    .trim()
    .min(1, '件名を入力してください。')
    .max(INQUIRY_LIMITS.subject, `件名は${INQUIRY_LIMITS.subject}文字以内で入力してください。`),
  message: z
    .string({ error: 'お問い合わせ内容を入力してください。' })
    .trim()
    .min(1, 'お問い合わせ内容を入力してください。')
    .max(
      INQUIRY_LIMITS.message,
      `お問い合わせ内容は${INQUIRY_LIMITS.message.toLocaleString('ja-JP')}文字以内で入力してください。`,
    ),
  related: relatedField,
});
export type InquiryInput = z.output<typeof inquiryInputSchema>;

const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new reference number: Q-, the Japanese date, and four characters without look-alikes (I, L, O, U).
 * @example newInquiryReference(new Date('2026-11-24T03:00:00Z')) // 'Q-20261124-8K3F'
 */
export function newInquiryReference(now: Date): string {
  const day = new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
  let tail = '';
  for (let i = 0; i < 4; i++) tail += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `Q-${day}-${tail}`;
}

/** A time as the form's choices write it, in Japan: 2026/11/24 12:34. */
/** A draw as members name it everywhere: 1回, 10連, 100連 (issue 29 item 11). */
const drawCountLabel = (count: number) => (count === 1 ? '1回' : `${count}連`);

function jstLabel(iso: string): string {
  const jst = new Date(new Date(iso).getTime() + 9 * 3_600_000).toISOString();
  return `${jst.slice(0, 4)}/${jst.slice(5, 7)}/${jst.slice(8, 10)} ${jst.slice(11, 16)}`;
}

/** One of the member's own things an inquiry may name, with the words the form and the desk show. */
export interface RelatedChoice {
  kind: InquiryRelatedKind;
  id: string;
  /** `order:<id>`: the form's value. */
  value: string;
  label: string;
}

const RECENT_CHOICES = 10;

/**
 * The member's latest orders, draws and shipping requests (ten each), for the form's choice.
 * @example const choices = await relatedChoicesOf(db, member.id)
 */
export async function relatedChoicesOf(db: Database, memberId: string): Promise<RelatedChoice[]> {
  const [orders, draws, requests] = await Promise.all([
    listOrders(db, memberId, { limit: RECENT_CHOICES }),
    listRecentDraws(db, memberId, RECENT_CHOICES),
    listShippingRequests(db, memberId, { limit: RECENT_CHOICES }),
  ]);
  const choice = (kind: InquiryRelatedKind, id: string, label: string): RelatedChoice => ({
    kind,
    id,
    value: `${kind}:${id}`,
    label,
  });
  return [
    ...orders.items.map((o) =>
      choice('order', o.id, `${jstLabel(o.createdAt)} ${o.packName} ${yen(o.amountJpy)}（受付番号 ${o.receiptNo}）`),
    ),
    ...draws.map((d) =>
      choice('draw', d.drawId, `${jstLabel(d.createdAt)} ${d.gachaTitle} ${drawCountLabel(d.count)}`),
    ),
    ...requests.items.map((r) =>
      choice(
        'shipping_request',
        r.id,
        `${jstLabel(r.requestedAt)} ${r.itemCount}枚（${SHIPPING_STATUS_LABELS[r.status]}）`,
      ),
    ),
  ];
}

/**
 * The named item when it is the member's own (for the desk too: then `memberId` is the inquiry's); null
 * when it is missing or someone else's.
 * @example const related = await describeRelated(db, memberId, { kind: 'order', id })
 */
export async function describeRelated(
  db: Database,
  memberId: string,
  related: { kind: InquiryRelatedKind; id: string },
): Promise<{ kind: InquiryRelatedKind; kindLabel: string; id: string; label: string } | null> {
  const named = (label: string) => ({
    kind: related.kind,
    kindLabel: INQUIRY_RELATED_KIND_LABELS[related.kind],
    id: related.id,
    label,
  });
  switch (related.kind) {
    case 'order': {
      const order = await getOrder(db, memberId, related.id);
      return order
        ? named(`${jstLabel(order.createdAt)} ${order.packName} ${yen(order.amountJpy)}（受付番号 ${order.receiptNo}）`)
        : null;
    }
    case 'draw': {
      const draw = (await describeDraws(db, memberId, [related.id])).get(related.id);
      return draw ? named(`${draw.gachaTitle} ${drawCountLabel(draw.count)}`) : null;
    }
    case 'shipping_request': {
      const request = (await describeShippingRequests(db, memberId, [related.id])).get(related.id);
      return request
        ? named(`${jstLabel(request.requestedAt)} ${request.itemCount}枚（${SHIPPING_STATUS_LABELS[request.status]}）`)
        : null;
    }
  }
}

/**
 * Inserts an inquiry row with a fresh reference, in the caller's transaction (its first message and notice
 * are the caller's: the contact form's and an appeal's differ).
 */
export async function insertInquiry(
  tx: Database,
  request: {
    input: Pick<InquiryInput, 'email' | 'category' | 'subject' | 'related'>;
    memberId: string | null;
    now: Date;
  },
): Promise<CreatedInquiry> {
  const { input, memberId, now } = request;
  const id = randomUUID();
  let reference: string | null = null;
  // A reference taken the same day (one in a million) is simply drawn again; ON CONFLICT keeps the
  // transaction usable where a unique violation would abort it.
  for (let attempt = 0; attempt < 8 && !reference; attempt++) {
    const candidate = newInquiryReference(now);
    const inserted = await tx
      .insert(inquiries)
      .values({
        id,
        reference: candidate,
        memberId,
        email: input.email,
        category: input.category,
        relatedKind: input.related?.kind ?? null,
        relatedId: input.related?.id ?? null,
        subject: input.subject,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: inquiries.reference })
      .returning({ reference: inquiries.reference });
    reference = inserted[0]?.reference ?? null;
  }
  if (!reference) throw new Error('support: no free inquiry reference after 8 tries');
  return { id, reference };
}

export interface CreatedInquiry {
  id: string;
  reference: string;
}

/**
 * Stores an inquiry with its first message and images, and queues the acknowledgement mail, in one
 * transaction. The images (already checked and re-encoded by prepareInquiryImage) are written first
 * and removed again when the transaction does not commit, so nothing is left half-written; a store that
 * cannot take them refuses the whole inquiry (MEDIA_STORE_UNAVAILABLE, 503). A related
 * item must be the member's own (a visitor names none).
 * @example const made = await createInquiry(db, rules, { input, memberId: member?.id ?? null, images })
 */
export async function createInquiry(
  db: Database,
  rules: SupportRules,
  request: { input: InquiryInput; memberId: string | null; images: readonly PreparedImage[]; now?: Date },
): Promise<
  { ok: true; inquiry: CreatedInquiry } | Refusal<InquiryRefusalCode | InquiryImageRefusalCode | MediaStoreRefusalCode>
> {
  const { input, memberId, images } = request;
  const now = request.now ?? new Date();
  if (images.length > INQUIRY_LIMITS.images) return refuse('INQUIRY_IMAGE_TOO_MANY', { max: INQUIRY_LIMITS.images });
  if (input.related) {
    const owned = memberId ? await describeRelated(db, memberId, input.related) : null;
    if (!owned) return refuse('INQUIRY_RELATED_NOT_FOUND', { kind: input.related.kind });
  }
  let written: Awaited<ReturnType<typeof writeInquiryImages>>;
  try {
    written = await writeInquiryImages(rules.attachments, images, now);
  } catch (error) {
    // The store failed: nothing is recorded, and what it kept is taken back (or swept later).
    if (isMediaStoreUnavailable(error)) return refuse('MEDIA_STORE_UNAVAILABLE');
    throw error;
  }
  try {
    const inquiry = await db.transaction(async (tx) => {
      const { id, reference } = await insertInquiry(tx, { input, memberId, now });
      const [message] = await tx
        .insert(inquiryMessages)
        .values({ inquiryId: id, author: 'inquirer', body: input.message, at: now })
        .returning({ id: inquiryMessages.id });
      if (written.stored.length)
        await tx.insert(inquiryAttachments).values(
          written.stored.map((s) => ({
            id: s.id,
            inquiryId: id,
            messageId: message!.id,
            storageKey: s.storageKey,
            contentType: 'image/webp',
            bytes: s.image.full.byteLength,
            width: s.image.width,
            height: s.image.height,
            createdAt: now,
          })),
        );
      await notifyInquirer(
        tx,
        rules.site,
        { email: input.email, memberId },
        { kind: 'received', reference, category: input.category },
      );
      return { id, reference };
    });
    return { ok: true, inquiry };
  } catch (error) {
    await written.remove();
    throw error;
  }
}
