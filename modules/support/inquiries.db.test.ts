// Inquiries on a real database: a visitor's and a member's inquiry with the acknowledgement mail in
// the same transaction, the reference number, a related item that must be the member's own, images
// sniffed and re-encoded without metadata (the stored file is never the upload) and removed again when
// the transaction fails, and the desk: list, counts and filters, the audited view, answers mailed and
// audited, status, assignee, note, templates, and every refusal without a permission.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { diskMediaStore } from '#server/media/index';
import { createMember } from '#tests/fixtures';
import { shippingMember, testShippingRules } from '#tests/shipping';
import { digestOf } from '#tests/audit-digest';
import { adminAuditLog, inquiries, inquiryAttachments, inquiryMessages, outboundMessages, users } from '#db/schema';
import { commandLineOperator, type AdminPermission, type Operator } from '#modules/admin';
import { listRecentDraws } from '#modules/draw';
import { sandboxHarness, checkoutAsMember } from '#modules/payments/testing';
import { createShippingRequest } from '#modules/shipping';
import {
  createInquiry,
  deleteReplyTemplate,
  getInquiryForDesk,
  readInquiryAttachment,
  inquiryFilterSchema,
  inquiryInputSchema,
  listInquiries,
  listReplyTemplates,
  prepareInquiryImage,
  relatedChoicesOf,
  replyToInquiry,
  saveReplyTemplate,
  setInquiryNote,
  updateInquiry,
  type PreparedImage,
  type SupportRules,
} from './index';

const handle = useTestDatabase('support', { poolSize: 2 });
const shippingRules = testShippingRules();
const rules = (): SupportRules => ({
  site: { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' },
  attachments: diskMediaStore(handle.dataDir),
  imageMaxBytes: 2_000_000,
});
const desk = commandLineOperator();

function staff(permissions: AdminPermission[], memberId: string = randomUUID()): Operator {
  return {
    memberId,
    label: 'staff@example.jp',
    role: 'staff',
    permissions: new Set(permissions),
    requestId: 'req-test',
    address: '203.0.113.7',
  };
}

const input = (overrides: Record<string, unknown> = {}) =>
  inquiryInputSchema.parse({
    category: 'shipping',
    email: 'visitor@example.jp',
    subject: '発送について',
    message: '発送状況を教えてください。\n受付番号がわかりません。',
    ...overrides,
  });

async function photo(options: { width?: number; format?: 'jpeg' | 'png' } = {}): Promise<Uint8Array> {
  const image = sharp({
    create: { width: options.width ?? 3000, height: 1500, channels: 3, background: '#ef3a6e' },
  }).withExif({ IFD0: { Copyright: 'GPS-SECRET-42', Artist: 'カメラの持ち主' } });
  return new Uint8Array(await (options.format === 'png' ? image.png() : image.jpeg()).toBuffer());
}

async function prepared(bytes: Uint8Array, index = 0): Promise<PreparedImage> {
  const result = await prepareInquiryImage(bytes, { maxBytes: 2_000_000, index });
  if (!result.ok) throw new Error(result.code);
  return result.image;
}

const mailsTo = (to: string) =>
  handle.db
    .select({ template: outboundMessages.template, subject: outboundMessages.subject, text: outboundMessages.textBody })
    .from(outboundMessages)
    .where(eq(outboundMessages.recipient, to));

const auditOf = (inquiryId: string) =>
  handle.db
    .select({
      action: adminAuditLog.action,
      permission: adminAuditLog.permission,
      before: adminAuditLog.before,
      after: adminAuditLog.after,
    })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, inquiryId))
    .orderBy(adminAuditLog.id);

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.webp'))
    : [];

describe('sending an inquiry', () => {
  it('stores a visitor’s inquiry with its message and acknowledges it by mail with the reference number', async () => {
    const email = `guest-${randomUUID().slice(0, 8)}@example.jp`;
    const made = await createInquiry(handle.db, rules(), {
      input: input({ email }),
      memberId: null,
      images: [],
      now: new Date('2026-11-24T15:30:00Z'),
    });
    if (!made.ok) throw new Error(made.code);
    // The Japanese date (00:30 on the 25th in Tokyo), four characters without look-alikes.
    expect(made.inquiry.reference).toMatch(/^Q-20261125-[0-9A-HJKMNP-TV-Z]{4}$/);
    const [row] = await handle.db.select().from(inquiries).where(eq(inquiries.id, made.inquiry.id));
    expect(row).toMatchObject({ status: 'new', memberId: null, email, category: 'shipping', relatedKind: null });
    const thread = await handle.db.select().from(inquiryMessages).where(eq(inquiryMessages.inquiryId, row!.id));
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({ author: 'inquirer', staffId: null });
    expect(thread[0]!.body).toContain('受付番号がわかりません');
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.template).toBe('inquiry-received');
    expect(mails[0]!.subject).toContain(made.inquiry.reference);
    expect(mails[0]!.text).toContain('発送・お届け');
    // The acknowledgement never relays what the sender typed (anyone may type anyone's address).
    expect(mails[0]!.text).not.toContain('受付番号がわかりません');
  });

  it('names only the member’s own order, draw or shipping request; another’s or a visitor’s is refused and leaves nothing', async () => {
    const owner = await shippingMember(handle.db, shippingRules, { prizes: 1 });
    const request = await createShippingRequest(handle.db, shippingRules, {
      memberId: owner.memberId,
      addressId: owner.addressId,
      prizeIds: owner.prizeIds,
      idempotencyKey: randomUUID(),
    });
    if (!request.ok) throw new Error(request.code);
    const sandbox = sandboxHarness(handle.db);
    const order = await checkoutAsMember(handle.db, sandbox.gateway, owner.memberId);
    const [draw] = await listRecentDraws(handle.db, owner.memberId, 5);

    const choices = await relatedChoicesOf(handle.db, owner.memberId);
    expect(choices.map((c) => c.kind).sort()).toEqual(['draw', 'order', 'shipping_request']);
    expect(choices.find((c) => c.kind === 'order')!.value).toBe(`order:${order.orderId}`);

    for (const related of [
      `order:${order.orderId}`,
      `draw:${draw!.drawId}`,
      `shipping_request:${request.request.id}`,
    ]) {
      const made = await createInquiry(handle.db, rules(), {
        input: input({ related }),
        memberId: owner.memberId,
        images: [],
      });
      expect(made.ok, related).toBe(true);
    }

    const stranger = await createMember(handle.db);
    const before = (await handle.db.select().from(inquiries)).length;
    for (const related of [
      `order:${order.orderId}`,
      `draw:${draw!.drawId}`,
      `shipping_request:${request.request.id}`,
      `order:${randomUUID()}`,
      'draw:not-a-uuid',
    ]) {
      const refused = await createInquiry(handle.db, rules(), {
        input: input({ related }),
        memberId: stranger,
        images: [await prepared(await photo({ width: 400 }))],
      });
      expect(refused, related).toMatchObject({ ok: false, code: 'INQUIRY_RELATED_NOT_FOUND' });
    }
    const visitor = await createInquiry(handle.db, rules(), {
      input: input({ related: `order:${order.orderId}` }),
      memberId: null,
      images: [],
    });
    expect(visitor).toMatchObject({ ok: false, code: 'INQUIRY_RELATED_NOT_FOUND' });
    expect((await handle.db.select().from(inquiries)).length).toBe(before);
    expect(inquiryInputSchema.safeParse({ ...input(), related: 'coupon:123' }).success).toBe(false);
  });

  it('re-encodes images (upright, shrunk, WebP, no metadata) and refuses what is not an image or too large', async () => {
    const original = await photo();
    const image = await prepared(original);
    expect(Math.max(image.width, image.height)).toBe(2048);
    const meta = await sharp(image.full).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(image.full.includes(Buffer.from('GPS-SECRET-42'))).toBe(false);
    expect(Buffer.from(original).includes(Buffer.from('GPS-SECRET-42'))).toBe(true);
    expect((await sharp(image.thumb).metadata()).width).toBeLessThanOrEqual(320);
    expect(
      (await prepareInquiryImage(await photo({ width: 500, format: 'png' }), { maxBytes: 2_000_000, index: 1 })).ok,
    ).toBe(true);

    const text = new TextEncoder().encode('%PDF-1.7 これは画像ではありません');
    expect(await prepareInquiryImage(text, { maxBytes: 2_000_000, index: 1 })).toMatchObject({
      ok: false,
      code: 'INQUIRY_IMAGE_TYPE',
      details: { image: 2 },
    });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    expect(await prepareInquiryImage(svg, { maxBytes: 2_000_000, index: 0 })).toMatchObject({
      code: 'INQUIRY_IMAGE_TYPE',
    });
    expect(await prepareInquiryImage(original, { maxBytes: 1000, index: 0 })).toMatchObject({
      code: 'INQUIRY_IMAGE_TOO_LARGE',
      details: { image: 1, maxBytes: 1000 },
    });
    const truncated = original.slice(0, 200);
    expect(await prepareInquiryImage(truncated, { maxBytes: 2_000_000, index: 0 })).toMatchObject({
      code: 'INQUIRY_IMAGE_TYPE',
    });
  });

  it('stores images with the inquiry, and removes the files when the transaction fails', async () => {
    // The embedded default: the images are files under DATA_DIR/inquiries, as they always were.
    const dir = path.join(handle.dataDir, 'inquiries');
    const images = [await prepared(await photo({ width: 900 })), await prepared(await photo({ width: 600 }), 1)];
    const made = await createInquiry(handle.db, rules(), { input: input(), memberId: null, images });
    if (!made.ok) throw new Error(made.code);
    const rows = await handle.db
      .select()
      .from(inquiryAttachments)
      .where(eq(inquiryAttachments.inquiryId, made.inquiry.id));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.contentType).toBe('image/webp');
      const image = await readInquiryAttachment(handle.db, desk, rules(), row.id, 'full');
      if (!image.ok) throw new Error(image.code);
      expect(fs.readFileSync(path.join(dir, `${row.storageKey}.webp`))).toEqual(Buffer.from(image.bytes));
      expect((await sharp(image.bytes).metadata()).format).toBe('webp');
    }
    const filesBefore = filesUnder(dir).length;
    const countBefore = (await handle.db.select().from(inquiries)).length;
    // An address the outbox refuses makes the mail throw inside the transaction: nothing may remain.
    await expect(
      createInquiry(handle.db, rules(), {
        input: { ...input(), email: 'not an address' },
        memberId: null,
        images: [await prepared(await photo({ width: 700 }))],
      }),
    ).rejects.toThrow(RangeError);
    expect(filesUnder(dir).length).toBe(filesBefore);
    expect(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.tmp'))).toBe(false);
    expect((await handle.db.select().from(inquiries)).length).toBe(countBefore);
    // Three at most.
    expect(
      await createInquiry(handle.db, rules(), { input: input(), memberId: null, images: [...images, ...images] }),
    ).toMatchObject({ ok: false, code: 'INQUIRY_IMAGE_TOO_MANY' });
    // Only operators who may read inquiries reach a file.
    expect(
      await readInquiryAttachment(handle.db, staff(['shipping:read']), rules(), rows[0]!.id, 'thumb'),
    ).toMatchObject({
      ok: false,
      code: 'PERMISSION_DENIED',
    });
  });
});

describe('the desk', () => {
  async function inquiryFrom(email: string, overrides: Record<string, unknown> = {}) {
    const made = await createInquiry(handle.db, rules(), {
      input: input({ email, ...overrides }),
      memberId: null,
      images: [],
    });
    if (!made.ok) throw new Error(made.code);
    return made.inquiry;
  }

  it('lists open inquiries first with counts and filters, and refuses staff without inquiries:read', async () => {
    const email = `list-${randomUUID().slice(0, 8)}@example.jp`;
    const first = await inquiryFrom(email, { category: 'payment', subject: '決済エラーについて' });
    const second = await inquiryFrom(email, { category: 'bug' });
    const writer = staff(['inquiries:read', 'inquiries:write']);
    const closed = await updateInquiry(handle.db, writer, first.id, { status: 'closed', assigneeId: null });
    expect(closed.ok).toBe(true);

    const all = await listInquiries(handle.db, desk, inquiryFilterSchema.parse({ q: email }));
    if (!all.ok) throw new Error(all.code);
    expect(all.list.items.map((i) => i.id)).toEqual([second.id, first.id]);
    expect(all.list.counts).toMatchObject({ new: 1, closed: 1, in_progress: 0, waiting: 0 });
    const byReference = await listInquiries(
      handle.db,
      desk,
      inquiryFilterSchema.parse({ q: first.reference.toLowerCase() }),
    );
    expect(byReference.ok && byReference.list.items.map((i) => i.id)).toEqual([first.id]);
    const byCategory = await listInquiries(handle.db, desk, inquiryFilterSchema.parse({ q: email, category: 'bug' }));
    expect(byCategory.ok && byCategory.list.items.map((i) => i.id)).toEqual([second.id]);
    const byStatus = await listInquiries(handle.db, desk, inquiryFilterSchema.parse({ q: email, status: 'closed' }));
    expect(byStatus.ok && byStatus.list.items.map((i) => i.id)).toEqual([first.id]);
    const bySubject = await listInquiries(handle.db, desk, inquiryFilterSchema.parse({ q: '決済エラー' }));
    expect(bySubject.ok && bySubject.list.items.some((i) => i.id === first.id)).toBe(true);
    const unassigned = await listInquiries(handle.db, desk, inquiryFilterSchema.parse({ q: email, assignee: 'none' }));
    expect(unassigned.ok && unassigned.list.items).toHaveLength(2);
    expect(inquiryFilterSchema.safeParse({ status: 'lost' }).success).toBe(false);

    const outsider = staff(['shipping:read', 'shipping:write']);
    expect(await listInquiries(handle.db, outsider, inquiryFilterSchema.parse({}))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await getInquiryForDesk(handle.db, outsider, first.id)).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await listReplyTemplates(handle.db, outsider)).toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('audits each view, mails each answer to the inquirer, and audits every change in its transaction', async () => {
    const email = `answer-${randomUUID().slice(0, 8)}@example.jp`;
    const inquiry = await inquiryFrom(email);
    const reader = staff(['inquiries:read']);
    const shown = await getInquiryForDesk(handle.db, reader, inquiry.id);
    if (!shown.ok) throw new Error(shown.code);
    expect(shown.value.messages).toHaveLength(1);
    expect(await auditOf(inquiry.id)).toEqual([
      expect.objectContaining({ action: 'inquiry.view', permission: 'inquiries:read' }),
    ]);

    // Read-only staff change nothing (and nothing is recorded or mailed).
    for (const refused of [
      await replyToInquiry(handle.db, reader, rules(), inquiry.id, { body: '回答', status: 'waiting' }),
      await updateInquiry(handle.db, reader, inquiry.id, { status: 'closed', assigneeId: null }),
      await setInquiryNote(handle.db, reader, inquiry.id, 'メモ'),
      await saveReplyTemplate(handle.db, reader, { title: 't', body: 'b' }),
    ])
      expect(refused).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(await mailsTo(email)).toHaveLength(1);

    const staffMember = await createMember(handle.db, { name: '佐藤（サポート）' });
    await handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, staffMember));
    const writer = staff(['inquiries:read', 'inquiries:write'], staffMember);
    const answered = await replyToInquiry(handle.db, writer, rules(), inquiry.id, {
      body: 'お問い合わせありがとうございます。\n発送は明日の予定です。',
      status: 'waiting',
    });
    expect(answered).toMatchObject({ ok: true, value: { status: 'waiting' } });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.template)).toEqual(['inquiry-received', 'inquiry-reply']);
    expect(mails[1]!.text).toContain('発送は明日の予定です。');
    expect(mails[1]!.subject).toContain(inquiry.reference);
    const [row] = await handle.db.select().from(inquiries).where(eq(inquiries.id, inquiry.id));
    expect(row).toMatchObject({ status: 'waiting', assigneeId: staffMember });
    const staffMessages = await handle.db
      .select()
      .from(inquiryMessages)
      .where(and(eq(inquiryMessages.inquiryId, inquiry.id), eq(inquiryMessages.author, 'staff')));
    expect(staffMessages).toHaveLength(1);
    expect(staffMessages[0]!.staffId).toBe(staffMember);

    expect(
      await updateInquiry(handle.db, writer, inquiry.id, { status: 'in_progress', assigneeId: randomUUID() }),
    ).toMatchObject({ ok: false, code: 'INQUIRY_ASSIGNEE_INVALID' });
    expect(await updateInquiry(handle.db, writer, inquiry.id, { status: 'closed', assigneeId: null })).toMatchObject({
      ok: true,
      value: { status: 'closed', assigneeId: null },
    });
    expect(await setInquiryNote(handle.db, writer, inquiry.id, '返金済み')).toMatchObject({ ok: true });
    expect(await updateInquiry(handle.db, writer, randomUUID(), { status: 'closed', assigneeId: null })).toMatchObject({
      code: 'INQUIRY_NOT_FOUND',
    });

    const audit = await auditOf(inquiry.id);
    expect(audit.map((a) => a.action)).toEqual(['inquiry.view', 'inquiry.reply', 'inquiry.update', 'inquiry.note']);
    // The answer and the note live in their own rows (退会 redacts them); the log keeps their digests
    // (the sha256 of the text as stored), and the note's digest is carried into later entries' before.
    expect(audit[1]!.after).toMatchObject({
      status: 'waiting',
      messageId: staffMessages[0]!.id,
      reply: digestOf(staffMessages[0]!.body),
    });
    expect(staffMessages[0]!.body).toContain('発送は明日');
    expect(audit[3]!.before).toMatchObject({ internalNote: null });
    expect(audit[3]!.after).toMatchObject({ internalNote: digestOf('返金済み') });
    expect(JSON.stringify(audit)).not.toMatch(/発送は明日|返金済み/);
  });

  it('keeps reply templates: add, change, delete, each audited', async () => {
    const writer = staff(['inquiries:read', 'inquiries:write']);
    const saved = await saveReplyTemplate(handle.db, writer, { title: '発送のご案内', body: '発送は{日付}です。' });
    if (!saved.ok) throw new Error(saved.code);
    const changed = await saveReplyTemplate(handle.db, writer, {
      id: saved.value.id,
      title: '発送のご案内',
      body: '発送は明日です。',
    });
    expect(changed.ok).toBe(true);
    const listed = await listReplyTemplates(handle.db, writer);
    expect(listed.ok && listed.templates.find((t) => t.id === saved.value.id)?.body).toBe('発送は明日です。');
    expect(await saveReplyTemplate(handle.db, writer, { id: randomUUID(), title: 'x', body: 'y' })).toMatchObject({
      code: 'INQUIRY_TEMPLATE_NOT_FOUND',
    });
    expect(await deleteReplyTemplate(handle.db, writer, saved.value.id)).toMatchObject({ ok: true });
    expect(await deleteReplyTemplate(handle.db, writer, saved.value.id)).toMatchObject({
      code: 'INQUIRY_TEMPLATE_NOT_FOUND',
    });
    expect((await auditOf(saved.value.id)).map((a) => a.action)).toEqual([
      'inquiry_template.create',
      'inquiry_template.update',
      'inquiry_template.delete',
    ]);
  });
});
