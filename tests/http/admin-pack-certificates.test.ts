// Proof that the hits exist (issue 33 item 8) through the built shop: the pack editor keeps a graded
// card's photo byte for byte (a photo with its location refused, 422), records the SHA-256 of exactly the
// uploaded bytes, and /media/originals answers those bytes unchanged; publishing a PSA10 worth 50,000
// coins without its certificate number is refused (422, in Japanese), with it published; the pack page
// shows the certificate and the hash; the published tier refuses every change (409).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { gachas, gachaTiers, genres } from '#db/schema';
import { endPack, receiveStock } from '#modules/gacha';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
const PACK = `http-cert-${Date.now().toString(36)}`;
/** The test's own genre, shown while it runs and hidden after, so the shop's lists are as before. */
const GENRE = `cert-${Date.now().toString(36)}`;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await handle.db.insert(genres).values({ id: GENRE, name: '鑑定テスト', sortOrder: 999 });
});
afterAll(async () => {
  if (handle) {
    const [pack] = await handle.db.select().from(gachas).where(eq(gachas.id, PACK));
    if (pack && pack.status !== 'draft') await endPack(handle.db, PACK);
    await handle.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
  }
  await handle?.close();
});

async function upload(fields: Record<string, string>, bytes: Uint8Array, cookie: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'slab.jpg');
  const response = await fetch(`${shopUrl()}/admin/packs/${PACK}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: shopUrl(), cookie },
    body: form,
  });
  return { status: response.status, body: await response.text() };
}

/** A phone's photo of the slab: a JPEG with its camera's EXIF (and, with `gps`, where it was taken). */
async function slabPhoto(gps = false) {
  return new Uint8Array(
    await sharp({ create: { width: 600, height: 900, channels: 3, background: '#c8d0da' } })
      .withExif({
        IFD0: { Make: 'ShopCamera' },
        ...(gps ? { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 40/1 12/1' } } : {}),
      })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
}

/** The tier step's form: the S賞's certificate number, and the photos' paths as the page's hidden fields carry them. */
const tiers = (certificateNumber: string, images: { s?: string; b?: string } = {}) => ({
  intent: 'tiers',
  tierCount: '2',
  ...Object.fromEntries(
    [
      {
        key: 's',
        kind: 'regular',
        label: 'S賞',
        effect: 'rainbow',
        cardName: `${PACK} リザードン`,
        gradeCompany: 'PSA',
        gradeValue: '10',
        certificateNumber,
        quantity: '1',
        conversionValue: '50000',
        cardImagePath: images.s ?? '',
      },
      {
        key: 'b',
        kind: 'regular',
        label: 'B賞',
        effect: 'normal',
        cardName: `${PACK} コイキング`,
        quantity: '9',
        conversionValue: '100',
        cardImagePath: images.b ?? '',
      },
    ].flatMap((row, i) => Object.entries(row).map(([k, v]) => [`tiers.${i}.${k}`, v])),
  ),
});

describe.skipIf(!databaseUrl)(
  `certified prizes in the pack editor${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('keeps the photo byte for byte, serves it unchanged, and publishes only with the certificate', async () => {
      const email = uniqueEmail('packs-cert');
      const signedUp = await signUpByForm({ name: '鑑定担当', email, password: 'packs-pass-1', agreeToTerms: 'on' });
      await grantStaff(handle!.db, email, ['packs:write']);
      const cookie = cookieFrom(signedUp.headers);
      const page = `/admin/packs/${PACK}`;
      expect(
        (
          await postForm(
            '/admin/packs',
            { id: PACK, genreId: GENRE, title: '鑑定品オリパ', description: '' },
            { cookie },
          )
        ).status,
      ).toBe(302);
      const sale = new URLSearchParams({ intent: 'sale', pricePerDraw: '10000', sortOrder: '0' });
      sale.append('drawOptions', '1');
      await fetch(shopUrl() + page, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: shopUrl(), cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: sale.toString(),
      });
      // A certificate number on a card that is not graded, or written wrong, is refused on its field.
      const wrong = await postForm(page, { ...tiers('No.12345678') }, { cookie });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toContain('鑑定番号は鑑定書（ケースのラベル）に印刷された英数字のとおりに入力してください');
      expect((await postForm(page, tiers(''), { cookie })).status).toBe(200);

      // The photo: one with its location is refused and nothing recorded; a plain one is kept as it came.
      const located = await upload({ intent: 'tier-image', tierKey: 's' }, await slabPhoto(true), cookie);
      expect(located.status).toBe(422);
      expect(located.body).toContain('この写真には撮影場所（位置情報）が含まれています。');
      const tierRow = async () =>
        (
          await handle!.db
            .select()
            .from(gachaTiers)
            .where(eq(gachaTiers.id, `${PACK}.s`))
        )[0]!;
      expect(await tierRow()).toMatchObject({ cardImagePath: '', cardPhotoSha256: null });
      const bytes = await slabPhoto();
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const stored = await upload({ intent: 'tier-image', tierKey: 's' }, bytes, cookie);
      expect(stored.status).toBe(200);
      expect(stored.body).toContain(`SHA-256 ${sha256}`);
      const withPhoto = await tierRow();
      expect(withPhoto).toMatchObject({
        cardPhotoSha256: sha256,
        cardPhotoOriginalPath: `/media/originals/${sha256}.jpg`,
      });
      expect(withPhoto.cardImagePath).toMatch(/^\/media\/packs\/[0-9a-f-]{36}\.webp$/);
      const original = await fetch(shopUrl() + withPhoto.cardPhotoOriginalPath!);
      expect(original.status).toBe(200);
      expect(original.headers.get('content-type')).toBe('image/jpeg');
      const served = new Uint8Array(await original.arrayBuffer());
      expect(Buffer.compare(Buffer.from(served), Buffer.from(bytes))).toBe(0);
      expect(createHash('sha256').update(served).digest('hex')).toBe(sha256);
      // The B賞 is not graded: its photo is only the re-encoded copy.
      expect((await upload({ intent: 'tier-image', tierKey: 'b' }, bytes, cookie)).status).toBe(200);
      await upload({ intent: 'pack-image' }, bytes, cookie);
      await receiveStock(handle!.db, {
        cardName: `${PACK} リザードン`,
        cardGrade: 'PSA10',
        count: 1,
        valueCoins: 50000,
      });
      await receiveStock(handle!.db, { cardName: `${PACK} コイキング`, count: 9, valueCoins: 100 });

      // Without its certificate number the PSA10 is not published.
      const refused = await postForm(page, { intent: 'publish', acknowledgeNegativeMargin: 'on' }, { cookie });
      expect(refused.status).toBe(422);
      expect(refused.body).toContain(
        '公開前チェックを通っていない項目があります: 高額な鑑定品（交換10,000コイン以上）の鑑定番号と写真',
      );
      expect(refused.body).toContain(`S賞（${PACK} リザードン PSA10）: 鑑定番号を入力してください`);
      // With it (saving the tiers keeps the photo), it is.
      const paths = Object.fromEntries(
        (await handle!.db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, PACK))).map((t) => [
          t.id.slice(PACK.length + 1),
          t.cardImagePath,
        ]),
      );
      expect((await postForm(page, tiers('12345678', paths), { cookie })).status).toBe(200);
      expect((await tierRow()).cardPhotoSha256).toBe(sha256);
      const published = await postForm(page, { intent: 'publish', acknowledgeNegativeMargin: 'on' }, { cookie });
      expect(published.status).toBe(200);
      expect(published.body).toContain('公開しました（10口）');

      // The pack page shows the certificate and the photo's hash and address.
      const pack = await get(`/gacha/${GENRE}/${PACK}`);
      expect(pack.status).toBe(200);
      expect(pack.body).toContain('PSA 鑑定番号 12345678');
      expect(pack.body).toContain(sha256);
      expect(pack.body).toContain(`/media/originals/${sha256}.jpg`);

      // Published: the certificate and the photo never change.
      const change = await postForm(page, tiers('87654321', paths), { cookie });
      expect(change.status).toBe(409);
      expect((await upload({ intent: 'tier-image', tierKey: 's' }, await slabPhoto(), cookie)).status).toBe(409);
      expect(await tierRow()).toMatchObject({ certificateNumber: '12345678', cardPhotoSha256: sha256 });
    });
  },
);
