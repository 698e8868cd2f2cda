// The content editor's edges over HTTP (issue 15, decisions 039 and 040), on the built-in store:
// - /preview shows a draft version to content staff (content:write, second factor on), noindex and never
//   cached; a member, or staff without content:write, meet the not-found page;
// - POST /admin/content/images takes content:write; a file that is not an image, or is too large, is
//   refused in Japanese and nothing is stored or audited; a real PNG is re-encoded (WebP, at most 1200
//   wide), served from /media/content, and its upload audited as content.image.upload.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, users } from '#db/schema';
import { createDocument, createBuiltinSource, paragraph } from '#modules/content';
import { cookieFrom, get, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
const UID = `guide/http-preview-${Date.now().toString(36)}`;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

/** A member signed up by the form; with `permissions`, made staff holding them (second factor on). */
async function signedIn(label: string, permissions?: string[]) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'content-pass-1', agreeToTerms: 'on' });
  if (permissions) await grantStaff(handle!.db, email, permissions);
  const [member] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { cookie: cookieFrom(page.headers), id: member!.id };
}

async function uploadImage(file: { bytes: Uint8Array; name: string; type: string }, cookie: string) {
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await fetch(`${shopUrl()}/admin/content/images`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: shopUrl(), cookie },
    body: form,
  });
  return { status: response.status, body: await response.text() };
}

const uploadsBy = (memberId: string) =>
  handle!.db
    .select({ targetId: adminAuditLog.targetId, after: adminAuditLog.after, permission: adminAuditLog.permission })
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.actorId, memberId), eq(adminAuditLog.action, 'content.image.upload')));

describe.skipIf(!databaseUrl)(
  `the content editor over HTTP${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('shows a draft on /preview to content staff only, noindex and never cached', async () => {
      const { id } = await handle!.db.transaction((tx) =>
        createDocument(tx, {
          type: 'page',
          draft: {
            uid: UID,
            tags: [],
            data: { title: '未公開の案内', body: [paragraph('まだ公開していない本文です。')] },
          },
          createdBy: null,
        }),
      );
      const path = `/preview?document=${id}&version=1`;
      // Not on the site: the page itself is not found.
      expect((await get(`/${UID}`)).status).toBe(404);
      expect(await createBuiltinSource(handle!.db).getPage(UID, ['page'])).toBeNull();

      const editor = await signedIn('preview-editor', ['content:write']);
      const shown = await get(path, { cookie: editor.cookie });
      expect(shown.status).toBe(200);
      expect(shown.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(shown.headers.get('cache-control')).toBe('private, no-store');
      expect(shown.body).toContain('まだ公開していない本文です。');
      // React's markers between text pieces aside, the label says which version of which page.
      expect(shown.body.replaceAll('<!-- -->', '')).toContain(`プレビュー（版1・/${UID}）`);
      // A version that does not exist is not found, even for the editor.
      expect((await get(`/preview?document=${id}&version=9`, { cookie: editor.cookie })).status).toBe(404);

      // A member, and staff holding other permissions, meet the not-found page: nothing of the draft.
      const member = await signedIn('preview-member');
      const packsStaff = await signedIn('preview-packs', ['packs:write']);
      for (const who of [member, packsStaff]) {
        const refused = await get(path, { cookie: who.cookie });
        expect(refused.status).toBe(404);
        expect(refused.headers.get('x-robots-tag')).toBe('noindex, nofollow');
        expect(refused.body).not.toContain('まだ公開していない本文です。');
      }
    });

    it('uploads content images for content:write only, refusing what is not a sane image, and audits each', async () => {
      const png = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#3060e0' } })
        .png()
        .toBuffer();
      const packsStaff = await signedIn('images-packs', ['packs:write']);
      expect((await uploadImage({ bytes: png, name: 'a.png', type: 'image/png' }, packsStaff.cookie)).status).toBe(403);
      expect(await uploadsBy(packsStaff.id)).toEqual([]);

      const editor = await signedIn('images-editor', ['content:write']);
      const text = await uploadImage(
        { bytes: new TextEncoder().encode('%PDF-1.4 not an image'), name: 'x.png', type: 'image/png' },
        editor.cookie,
      );
      expect(text.status).toBe(415);
      expect(JSON.parse(text.body).error).toBe(
        '画像を読み込めませんでした。JPEG・PNG・WebPの画像をアップロードしてください。',
      );
      const huge = await uploadImage(
        { bytes: new Uint8Array(8_200_000), name: 'big.png', type: 'image/png' },
        editor.cookie,
      );
      expect(huge.status).toBe(413);
      expect(JSON.parse(huge.body).error).toContain('画像が大きすぎます');
      const missing = await uploadImage(
        { bytes: new Uint8Array(0), name: 'empty.png', type: 'image/png' },
        editor.cookie,
      );
      expect(missing.status).toBe(400);
      expect(JSON.parse(missing.body).error).toBe('画像ファイルを選んでください。');
      expect(await uploadsBy(editor.id)).toEqual([]);

      const stored = await uploadImage({ bytes: png, name: 'page.png', type: 'image/png' }, editor.cookie);
      expect(stored.status).toBe(200);
      const image = JSON.parse(stored.body) as { url: string; width: number; height: number };
      expect(image).toMatchObject({ width: 1200, height: 600 });
      expect(image.url).toMatch(/^\/media\/content\/[0-9a-f]+\.webp$/);
      const served = await fetch(shopUrl() + image.url);
      expect(served.status).toBe(200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 600]);
      expect(await uploadsBy(editor.id)).toEqual([{ targetId: image.url, after: image, permission: 'content:write' }]);
    });
  },
);
