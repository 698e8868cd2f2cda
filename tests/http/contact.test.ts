// The contact form and the inquiry desk as the built shop serves them: visitors and members post (a
// member's own shipping request named, another member's refused), images re-encoded and served only to
// operators, the honeypot, a non-image and an oversized image refused in Japanese, the limits per
// email and per address, the acknowledgement with the reference number; at /admin/inquiries members
// meet not-found, staff without inquiries:read 403 on every page, read-only staff 403 on every action,
// and an answer is mailed to the inquirer and audited like every change.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { asc, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, draws, inquiries, inquiryAttachments } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { grantStaff } from '#tests/staff';
import { get, postForm, postFromAddress, shopUrl, titleOf, uniqueEmail } from '#tests/http';
import { memberWithShippingRequest, type ShippingMember } from '#tests/shipping-http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

/** A photo as a phone would send it (with EXIF). */
const photo = async (width = 1200) =>
  sharp({ create: { width, height: 800, channels: 3, background: '#3a6eef' } })
    .withExif({ IFD0: { Copyright: 'GPS-SECRET-HTTP' } })
    .jpeg()
    .toBuffer();

/** The contact form posted as a browser does (multipart, same-origin), with files under `images`. */
async function postContact(
  fields: Record<string, string>,
  options: { cookie?: string; files?: { name: string; type: string; bytes: Uint8Array }[] } = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const file of options.files ?? [])
    form.append('images', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await fetch(`${shopUrl()}/contact`, {
    method: 'POST',
    body: form,
    headers: { origin: shopUrl(), ...(options.cookie ? { cookie: options.cookie } : {}) },
    redirect: 'manual',
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    setCookie: response.headers.getSetCookie(),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
}

const fields = (email: string, extra: Record<string, string> = {}) => ({
  category: 'shipping',
  email,
  subject: '発送について',
  message: '届いたカードに傷がありました。',
  ...extra,
});

async function outbox(email: string) {
  const response = await fetch(`${shopUrl()}/dev/outbox.json?to=${encodeURIComponent(email)}`);
  return ((await response.json()) as { messages: { template: string; subject: string; text: string }[] }).messages;
}

/** A signed-up member made staff with these permissions and a second factor (as TOTP setup leaves it). */
async function staffWith(member: ShippingMember, permissions: string[]) {
  await grantStaff(handle!.db, member.email, permissions);
  return member.cookie;
}

const inquiryOf = async (email: string) =>
  (await handle!.db.select().from(inquiries).where(eq(inquiries.email, email)).orderBy(desc(inquiries.createdAt)))[0];

describe('the contact form', () => {
  it('is a public page titled お問い合わせ, linked from the footer and the legal pages', async () => {
    const page = await get('/contact');
    expect(page.status).toBe(200);
    expect(titleOf(page.body)).toBe('お問い合わせ | オリパ ステラ');
    expect(page.body).toContain('name="website"'); // the honeypot
    expect(page.body).not.toContain('関連するご利用'); // a visitor names nothing of a member's
    expect(page.headers.get('x-robots-tag')).toBeNull();
    const legal = await get('/tokushoho');
    expect(legal.body).toMatch(/<a[^>]+href="\/contact"[^>]*>お問い合わせフォーム<\/a>/);
    expect(legal.body).toMatch(/href="\/contact"[^>]*>お問い合わせ</);
  });
});

describe.skipIf(!databaseUrl)(
  `the contact form and the desk${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop)'}`,
  () => {
    it('takes a visitor’s inquiry with an image, re-encoded, and acknowledges it with the reference number', async () => {
      const email = uniqueEmail('contact-guest');
      const sent = await postContact(fields(email), {
        files: [{ name: 'IMG_0001.JPG', type: 'image/jpeg', bytes: await photo() }],
      });
      expect(sent.status, sent.body.slice(0, 300)).toBe(302);
      expect(sent.location).toBe('/contact?sent=1');
      const cookie = sent.setCookie.map((c) => c.split(';')[0]).join('; ');
      const thanks = await get('/contact?sent=1', { cookie });
      const inquiry = await inquiryOf(email);
      expect(inquiry).toMatchObject({ memberId: null, status: 'new', category: 'shipping' });
      expect(thanks.body).toContain('お問い合わせを受け付けました');
      expect(thanks.body).toContain(inquiry!.reference);
      const mails = await outbox(email);
      expect(mails[0]).toMatchObject({ template: 'inquiry-received' });
      expect(mails[0]!.subject).toContain(inquiry!.reference);
      const [attachment] = await handle!.db
        .select()
        .from(inquiryAttachments)
        .where(eq(inquiryAttachments.inquiryId, inquiry!.id));
      expect(attachment).toMatchObject({ contentType: 'image/webp', width: 1200, height: 800 });
    });

    it('fills in a member’s address, offers their own requests, and refuses another member’s', async () => {
      const member = await memberWithShippingRequest(handle!.db, 'contact-member');
      const other = await memberWithShippingRequest(handle!.db, 'contact-other');
      const [otherDraw] = await handle!.db.select().from(draws).where(eq(draws.memberId, other.id));
      const [ownDraw] = await handle!.db.select().from(draws).where(eq(draws.memberId, member.id));
      const page = await get('/contact', { cookie: member.cookie });
      expect(page.body).toContain(`value="${member.email}"`);
      expect(page.body).toContain(`value="shipping_request:${member.requestId}"`);
      expect(page.body).toContain(`value="draw:${ownDraw!.id}"`);
      expect(page.body).not.toContain(other.requestId);

      for (const related of [`shipping_request:${other.requestId}`, `draw:${otherDraw!.id}`]) {
        const refused = await postContact(fields(member.email, { related }), { cookie: member.cookie });
        expect(refused.status, related).toBe(404);
        expect(refused.body).toContain('選んだご利用（注文・オリパ・発送依頼）が見つかりません');
      }
      expect(await inquiryOf(member.email)).toBeUndefined();
      // A visitor cannot name one either.
      const visitor = await postContact(fields(uniqueEmail('contact-nosy'), { related: `draw:${otherDraw!.id}` }));
      expect(visitor.status).toBe(404);

      const sent = await postContact(fields(member.email, { related: `shipping_request:${member.requestId}` }), {
        cookie: member.cookie,
      });
      expect(sent.status, sent.body.slice(0, 300)).toBe(302);
      expect(await inquiryOf(member.email)).toMatchObject({
        memberId: member.id,
        relatedKind: 'shipping_request',
        relatedId: member.requestId,
      });
    });

    it('refuses the honeypot, a non-image, an oversized image and a missing field in Japanese, storing nothing', async () => {
      const email = uniqueEmail('contact-refused');
      const bot = await postContact(fields(email, { website: 'https://spam.example' }));
      expect(bot.status).toBe(400);
      expect(bot.body).toContain('送信できませんでした');

      const pdf = await postContact(fields(email), {
        files: [
          { name: 'ok.jpg', type: 'image/jpeg', bytes: await photo(300) },
          { name: 'fake.jpg', type: 'image/jpeg', bytes: new TextEncoder().encode('%PDF-1.7 not an image') },
        ],
      });
      expect(pdf.status).toBe(400);
      expect(pdf.body).toContain('2枚目の画像は読み込めませんでした');
      expect(pdf.body).toContain('届いたカードに傷がありました。'); // what was typed comes back

      const large = new Uint8Array(5_000_001);
      large.set(await photo(200));
      const oversized = await postContact(fields(email), {
        files: [{ name: 'big.jpg', type: 'image/jpeg', bytes: large }],
      });
      expect(oversized.status).toBe(400);
      expect(oversized.body).toContain('1枚目の画像が大きすぎます（1枚5MBまで）');

      const four = await postContact(fields(email), {
        files: await Promise.all(
          [1, 2, 3, 4].map(async (n) => ({ name: `${n}.jpg`, type: 'image/jpeg', bytes: await photo(100 + n) })),
        ),
      });
      expect(four.status).toBe(400);
      expect(four.body).toContain('添付できる画像は3枚までです');

      const empty = await postContact({ category: 'nope', email: 'not-an-address', subject: '', message: '' });
      expect(empty.status).toBe(400);
      expect(empty.body).toContain('お問い合わせの種類を選んでください');
      expect(empty.body).toContain('メールアドレスの形式が正しくありません');
      expect(await inquiryOf(email)).toBeUndefined();

      // Beyond the form's own body limit the server stops reading.
      const huge = await fetch(`${shopUrl()}/contact`, {
        method: 'POST',
        body: new Uint8Array(16_000_000),
        headers: { origin: shopUrl(), 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(huge.status).toBe(413);
      expect(await huge.text()).toContain('送信内容が大きすぎます');
      // Every other page keeps the small limit.
      const elsewhere = await fetch(`${shopUrl()}/mypage/addresses`, {
        method: 'POST',
        body: new Uint8Array(300_000),
        headers: { origin: shopUrl(), 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(elsewhere.status).toBe(413);
    });

    it('limits inquiries per email address and posts per client address, with Retry-After', async () => {
      const email = uniqueEmail('contact-limit');
      const body = new URLSearchParams(fields(email)).toString();
      const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: shopUrl() };
      for (let i = 0; i < 5; i++)
        expect((await postFromAddress('127.0.0.71', '/contact', body, headers)).status).toBe(302);
      const sixth = await postFromAddress('127.0.0.72', '/contact', body, headers);
      expect(sixth.status).toBe(429);
      expect(sixth.body).toContain('短い時間に多くのお問い合わせが送信されました');
      expect((await handle!.db.select().from(inquiries).where(eq(inquiries.email, email))).length).toBe(5);

      const statuses: number[] = [];
      for (let i = 0; i < 61; i++)
        statuses.push((await postFromAddress('127.0.0.73', '/contact', 'x=1', headers)).status);
      expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
      expect(statuses[60]).toBe(429);
    });

    it('keeps /admin/inquiries from members (404), staff without inquiries:read (403) and read-only staff’s changes (403)', async () => {
      const email = uniqueEmail('contact-perm');
      expect(
        (await postContact(fields(email), { files: [{ name: 'a.png', type: 'image/png', bytes: await photo(400) }] }))
          .status,
      ).toBe(302);
      const inquiry = (await inquiryOf(email))!;
      const [attachment] = await handle!.db
        .select()
        .from(inquiryAttachments)
        .where(eq(inquiryAttachments.inquiryId, inquiry.id));
      const pages = [
        '/admin/inquiries',
        `/admin/inquiries/${inquiry.id}`,
        '/admin/inquiries/templates',
        `/admin/inquiries/attachments/${attachment!.id}?size=thumb`,
      ];
      const member = await memberWithShippingRequest(handle!.db, 'inq-member');
      for (const page of pages) expect((await get(page, { cookie: member.cookie })).status, page).toBe(404);
      expect((await get(pages[3]!)).status).toBe(302); // a visitor is sent to sign in

      const shipper = await memberWithShippingRequest(handle!.db, 'inq-shipper');
      const shipperCookie = await staffWith(shipper, ['shipping:read']);
      for (const page of pages) expect((await get(page, { cookie: shipperCookie })).status, page).toBe(403);
      expect((await get('/admin', { cookie: shipperCookie })).body).not.toContain('/admin/inquiries');

      const reader = await memberWithShippingRequest(handle!.db, 'inq-reader');
      const readerCookie = await staffWith(reader, ['inquiries:read']);
      for (const page of pages) expect((await get(page, { cookie: readerCookie })).status, page).toBe(200);
      const shown = await get(`/admin/inquiries/${inquiry.id}`, { cookie: readerCookie });
      expect(shown.body).not.toContain('回答を送信');
      for (const intent of ['reply', 'update', 'note'])
        expect(
          (
            await postForm(
              `/admin/inquiries/${inquiry.id}`,
              { intent, body: 'x', status: 'closed', note: 'x' },
              { cookie: readerCookie },
            )
          ).status,
          intent,
        ).toBe(403);
      for (const intent of ['save', 'delete'])
        expect(
          (await postForm('/admin/inquiries/templates', { intent, title: 't', body: 'b' }, { cookie: readerCookie }))
            .status,
          intent,
        ).toBe(403);
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, inquiry.id));
      expect(audit.map((a) => a.action)).toEqual(['inquiry.view', 'inquiry.view']);
      expect((await outbox(email)).map((m) => m.template)).toEqual(['inquiry-received']);
    });

    it('lets an operator find an inquiry, see its image, answer from a template (mailed), set status, assignee and a note', async () => {
      const email = uniqueEmail('contact-answer');
      const sent = await postContact(fields(email, { category: 'bug', subject: '画面が動きません' }), {
        files: [{ name: 'screen.png', type: 'image/png', bytes: await photo(640) }],
      });
      expect(sent.status).toBe(302);
      const inquiry = (await inquiryOf(email))!;
      const operator = await memberWithShippingRequest(handle!.db, 'inq-operator');
      const cookie = await staffWith(operator, ['inquiries:read', 'inquiries:write']);

      const list = await get(`/admin/inquiries?q=${inquiry.reference.toLowerCase()}`, { cookie });
      expect(list.status).toBe(200);
      expect(list.body).toContain(inquiry.reference);
      expect(list.body).toContain('画面が動きません');
      const byCategory = await get(`/admin/inquiries?category=account&q=${encodeURIComponent(email)}`, { cookie });
      expect(byCategory.body).toContain('条件に合うお問い合わせはありません');
      const bad = await get('/admin/inquiries?status=lost', { cookie });
      expect(bad.status).toBe(200);
      expect(bad.body).toContain('状態を選び直してください');

      const path = `/admin/inquiries/${inquiry.id}`;
      const page = await get(path, { cookie });
      expect(page.body).toContain('画面が動きません');
      const [attachment] = await handle!.db
        .select()
        .from(inquiryAttachments)
        .where(eq(inquiryAttachments.inquiryId, inquiry.id));
      expect(page.body).toContain(`/admin/inquiries/attachments/${attachment!.id}?size=thumb`);
      const thumb = await fetch(`${shopUrl()}/admin/inquiries/attachments/${attachment!.id}?size=thumb`, {
        headers: { cookie },
      });
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      expect(thumb.headers.get('cache-control')).toBe('private, no-store');
      const bytes = Buffer.from(await thumb.arrayBuffer());
      expect((await sharp(bytes).metadata()).width).toBeLessThanOrEqual(320);
      expect(bytes.includes(Buffer.from('GPS-SECRET-HTTP'))).toBe(false);
      expect((await get(`/admin/inquiries/attachments/${crypto.randomUUID()}`, { cookie })).status).toBe(404);

      const template = await postForm(
        '/admin/inquiries/templates',
        { intent: 'save', title: '不具合のお詫び', body: 'ご不便をおかけし申し訳ございません。\n修正いたしました。' },
        { cookie },
      );
      expect(template.status).toBe(200);
      expect(template.body).toContain('テンプレートを追加しました');
      const templateId = /templates\?edit=([0-9a-f-]{36})/.exec(
        (await get('/admin/inquiries/templates', { cookie })).body,
      )?.[1];
      expect(templateId).toBeDefined();
      const withTemplate = await get(`${path}?template=${templateId}`, { cookie });
      expect(withTemplate.body).toContain('ご不便をおかけし申し訳ございません。');

      const empty = await postForm(path, { intent: 'reply', body: '  ', status: 'waiting' }, { cookie });
      expect(empty.status).toBe(400);
      expect(empty.body).toContain('回答を入力してください');
      const replied = await postForm(
        path,
        { intent: 'reply', body: 'ご不便をおかけし申し訳ございません。\n修正いたしました。', status: 'waiting' },
        { cookie },
      );
      expect(replied.status).toBe(200);
      expect(replied.body).toContain('回答を送信しました');
      const mails = await outbox(email);
      expect(mails[0]).toMatchObject({ template: 'inquiry-reply' });
      expect(mails[0]!.text).toContain('修正いたしました。');
      expect(mails[0]!.subject).toContain(inquiry.reference);

      const updated = await postForm(path, { intent: 'update', status: 'closed', assigneeId: operator.id }, { cookie });
      expect(updated.status).toBe(200);
      const wrong = await postForm(path, { intent: 'update', status: 'closed', assigneeId: 'nobody' }, { cookie });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toContain('担当者には');
      const noted = await postForm(path, { intent: 'note', note: '次回リリースで修正済み' }, { cookie });
      expect(noted.status).toBe(200);
      const after = await get(path, { cookie });
      expect(after.body).toContain('次回リリースで修正済み');
      expect(after.body).toContain('完了');
      expect((await postForm(path, { intent: 'fly' }, { cookie })).status).toBe(400);

      const audit = await handle!.db
        .select({ action: adminAuditLog.action, actor: adminAuditLog.actorId })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, inquiry.id))
        .orderBy(asc(adminAuditLog.id));
      expect(audit.map((a) => a.action).filter((a) => a !== 'inquiry.view')).toEqual([
        'inquiry.reply',
        'inquiry.update',
        'inquiry.note',
      ]);
      expect(audit.every((a) => a.actor === operator.id)).toBe(true);
      const [row] = await handle!.db.select().from(inquiries).where(eq(inquiries.id, inquiry.id));
      expect(row).toMatchObject({ status: 'closed', assigneeId: operator.id, internalNote: '次回リリースで修正済み' });
    });
  },
);
