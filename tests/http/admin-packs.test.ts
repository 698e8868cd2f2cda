// The pack editor over HTTP (decision 030): packs:write on every page and action; field errors in
// Japanese; an upload that is not an image, or too large, refused (nothing stored); a real image
// re-encoded and served from /media; the preview of a draft for operators only; a published pack that
// no step can change; a cross-site post refused. Every change audited.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { asc, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, gachas, gachaTiers, genres } from '#db/schema';
import { endPack, receiveStock } from '#modules/gacha';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
const PACK = `http-editor-${Date.now().toString(36)}`;
/** The test's own genre, shown while it runs and hidden after, so the shop's lists are as before. */
const GENRE = `ed-${Date.now().toString(36)}`;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await handle.db.insert(genres).values({ id: GENRE, name: 'エディタテスト', sortOrder: 999 });
});
afterAll(async () => {
  if (handle) {
    const [pack] = await handle.db.select().from(gachas).where(eq(gachas.id, PACK));
    if (pack && pack.status !== 'draft') await endPack(handle.db, PACK);
    await handle.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
  }
  await handle?.close();
});

async function staffWith(label: string, permissions: string[]) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'packs-pass-1', agreeToTerms: 'on' });
  await grantStaff(handle!.db, email, permissions);
  return cookieFrom(page.headers);
}

async function upload(
  path: string,
  fields: Record<string, string>,
  file: { bytes: Uint8Array; name: string; type: string },
  cookie: string,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await fetch(shopUrl() + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: shopUrl(), cookie },
    body: form,
  });
  return { status: response.status, body: await response.text() };
}

const tierFields = (rows: Record<string, string>[]) => ({
  tierCount: String(rows.length),
  ...Object.fromEntries(rows.flatMap((row, i) => Object.entries(row).map(([k, v]) => [`tiers.${i}.${k}`, v]))),
});
const regular = (key: string, label: string, quantity: string, value: string) => ({
  key,
  kind: 'regular',
  label,
  effect: 'normal',
  cardName: `${PACK} ${label}`,
  quantity,
  conversionValue: value,
  cardImagePath: '',
});

describe.skipIf(!databaseUrl)(
  `the pack editor${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('needs packs:write on every page and action; visitors go to sign-in; members never see a preview', async () => {
      const reader = await staffWith('packs-reader', ['orders:read']);
      expect((await get('/admin/packs', { cookie: reader })).status).toBe(403);
      expect((await get('/admin/packs/stellar-pokemon-001', { cookie: reader })).status).toBe(403);
      const refused = await postForm(
        '/admin/packs',
        { id: 'nope', genreId: 'pokemon', title: 'x', description: '' },
        { cookie: reader },
      );
      expect(refused.status).toBe(403);
      expect(await handle!.db.select().from(gachas).where(eq(gachas.id, 'nope'))).toEqual([]);
      const visitor = await get('/admin/packs');
      expect(visitor.status).toBe(302);
      expect(visitor.location).toContain('/auth/sign_in');
      const member = cookieFrom(
        (
          await signUpByForm({
            name: 'ただの会員',
            email: uniqueEmail('packs-member'),
            password: 'member-pass-1',
            agreeToTerms: 'on',
          })
        ).headers,
      );
      expect((await get('/admin/packs', { cookie: member })).status).toBe(404);
      // A published pack's page is public; a draft's preview is not, even with ?preview=1.
      const writer = await staffWith('packs-preview', ['packs:write']);
      expect(
        (
          await postForm(
            '/admin/packs',
            { id: `${PACK}-p`, genreId: 'pokemon', title: '下書きプレビュー', description: '' },
            { cookie: writer },
          )
        ).status,
      ).toBe(302);
      expect((await get(`/gacha/pokemon/${PACK}-p`)).status).toBe(404);
      expect((await get(`/gacha/pokemon/${PACK}-p?preview=1`, { cookie: member })).status).toBe(404);
      const preview = await get(`/gacha/pokemon/${PACK}-p?preview=1`, { cookie: writer });
      expect(preview.status).toBe(200);
      expect(preview.body).toContain('プレビュー（未公開の下書き）です');
    });

    it('writes a draft with field errors in Japanese, takes only real images, publishes, and then changes nothing', async () => {
      const cookie = await staffWith('packs-writer', ['packs:write']);
      const bad = await postForm(
        '/admin/packs',
        { id: 'ＢＡＤ', genreId: 'pokemon', title: '', description: '' },
        { cookie },
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('IDは英小文字・数字・ハイフン');
      expect(bad.body).toContain('タイトルを入力してください。');
      const created = await postForm(
        '/admin/packs',
        { id: PACK, genreId: GENRE, title: 'HTTPエディタ', description: '説明' },
        { cookie },
      );
      expect(created.status).toBe(302);
      expect(created.location).toBe(`/admin/packs/${PACK}?step=sale`);
      const again = await postForm(
        '/admin/packs',
        { id: PACK, genreId: 'pokemon', title: '重複', description: '' },
        { cookie },
      );
      expect(again.status).toBe(409);

      const page = `/admin/packs/${PACK}`;
      const badSale = await postForm(
        page,
        { intent: 'sale', pricePerDraw: '0', sortOrder: '0', saleStartsAt: '2026-13-40T99:00' },
        { cookie },
      );
      expect(badSale.status).toBe(400);
      expect(badSale.body).toContain('1回の価格は1以上にしてください。');
      expect(badSale.body).toContain('引ける回数を1つ以上選んでください。');
      expect(badSale.body).toContain('販売開始の日時を正しく入力してください。');
      const sale = new URLSearchParams({
        intent: 'sale',
        pricePerDraw: '200',
        sortOrder: '0',
        saleStartsAt: '',
        saleEndsAt: '',
      });
      sale.append('drawOptions', '1');
      sale.append('drawOptions', '10');
      const savedSale = await fetch(shopUrl() + page, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: shopUrl(), cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: sale.toString(),
      });
      expect(savedSale.status).toBe(302);

      const badTiers = await postForm(
        page,
        { intent: 'tiers', ...tierFields([regular('t1', 'S賞', '0', '5000')]) },
        { cookie },
      );
      expect(badTiers.status).toBe(400);
      expect(badTiers.body).toContain('数量は1以上にしてください。');
      const kiribanLate = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([
            regular('t1', 'S賞', '1', '5000'),
            regular('t2', 'B賞', '9', '50'),
            { ...regular('t3', 'キリ番賞', '1', '900'), kind: 'kiriban', kiribanAt: 'abc' },
          ]),
        },
        { cookie },
      );
      expect(kiribanLate.status).toBe(400);
      expect(kiribanLate.body).toContain('キリ番は数字で入力してください。');
      // 「ゾロ目」 fills in every ゾロ目 below the table's total (issue 34 item 2): 120 lots → 11 … 99 and 111.
      const zorome = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([
            regular('t1', 'S賞', '1', '5000'),
            regular('t2', 'B賞', '119', '50'),
            { ...regular('t3', 'ゾロ目賞', '1', '300'), kind: 'kiriban', kiribanAt: 'ゾロ目' },
          ]),
        },
        { cookie },
      );
      expect(zorome.status).toBe(200);
      const zoromeTier = (
        await handle!.db
          .select({ id: gachaTiers.id, kiribanAt: gachaTiers.kiribanAt, quantity: gachaTiers.quantity })
          .from(gachaTiers)
          .where(eq(gachaTiers.gachaId, PACK))
      ).find((t) => t.id.endsWith('t3'));
      expect({ kiribanAt: zoromeTier?.kiribanAt, quantity: zoromeTier?.quantity }).toEqual({
        kiribanAt: [11, 22, 33, 44, 55, 66, 77, 88, 99, 111],
        quantity: 10,
      });
      // 個人キリ番賞 and ピタリ賞 (issue 34 item 2, decision 088): a member's own 10th and 50th lots, and the draw
      // that takes S賞's last lot. The quantity of a 個人キリ番賞 is the most it can give: ⌊120 ÷ 10⌋ + ⌊120 ÷ 50⌋.
      const extrasRefused = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([
            regular('t1', 'S賞', '1', '5000'),
            regular('t2', 'B賞', '119', '50'),
            { ...regular('t3', '個人キリ番賞', '1', '100'), kind: 'personal', personalKiribanAt: '10, 500' },
            { ...regular('t4', 'ピタリ賞', '1', '700'), kind: 'pitari', pitariOf: '' },
          ]),
        },
        { cookie },
      );
      expect(extrasRefused.status).toBe(400);
      expect(extrasRefused.body).toContain('ピタリ賞の対象の賞を選んでください。');
      const extrasOver = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([
            regular('t1', 'S賞', '1', '5000'),
            regular('t2', 'B賞', '119', '50'),
            { ...regular('t3', '個人キリ番賞', '1', '100'), kind: 'personal', personalKiribanAt: '10, 500' },
          ]),
        },
        { cookie },
      );
      // Saved as a draft (a table in progress may change its total), and the review refuses to publish it.
      expect(extrasOver.status).toBe(200);
      expect((await get(`${page}?step=review`, { cookie })).body).toContain(
        '個人キリ番 500 口目は総口数（120口）以下にしてください。',
      );
      const extras = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([
            regular('t1', 'S賞', '1', '5000'),
            regular('t2', 'B賞', '119', '50'),
            { ...regular('t3', '個人キリ番賞', '1', '100'), kind: 'personal', personalKiribanAt: '１０、50' },
            { ...regular('t4', 'ピタリ賞', '1', '700'), kind: 'pitari', pitariOf: 't1' },
          ]),
        },
        { cookie },
      );
      expect(extras.status).toBe(200);
      const extraTiers = (
        await handle!.db
          .select({
            id: gachaTiers.id,
            personalKiribanAt: gachaTiers.personalKiribanAt,
            pitariOf: gachaTiers.pitariOf,
            quantity: gachaTiers.quantity,
          })
          .from(gachaTiers)
          .where(eq(gachaTiers.gachaId, PACK))
      ).filter((t) => t.id.endsWith('t3') || t.id.endsWith('t4'));
      expect(extraTiers.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([
        { id: `${PACK}.t3`, personalKiribanAt: [10, 50], pitariOf: null, quantity: 14 },
        { id: `${PACK}.t4`, personalKiribanAt: null, pitariOf: `${PACK}.t1`, quantity: 1 },
      ]);
      // The review states each extra's odds per lot beside the table's (the ピタリ賞: 1 in 120).
      const review = await get(`${page}?step=review`, { cookie });
      expect(review.body).toContain('口とは別の賞 0.8%');
      expect(review.body).toContain('口とは別の賞（到達で確定・最大数を利益に計上）');
      // 天井賞 (issue 34 item 1, decision 089): 30 lots in a row without S賞. Its quantity is the most it can give,
      // ⌊120 ÷ 30⌋, and its card must be worth at least S賞's for 「S賞以上確定」 to hold.
      const ceilingRow = (value: string, from: string) => ({
        ...regular('t5', '天井賞', '1', value),
        kind: 'ceiling',
        ceilingAfter: '30',
        ceilingFrom: from,
      });
      const ceilingTable = (value: string, from: string) =>
        postForm(
          page,
          {
            intent: 'tiers',
            ...tierFields([
              regular('t1', 'S賞', '1', '5000'),
              regular('t2', 'B賞', '119', '50'),
              ceilingRow(value, from),
            ]),
          },
          { cookie },
        );
      const ceilingUnnamed = await ceilingTable('5000', '');
      expect(ceilingUnnamed.status).toBe(400);
      expect(ceilingUnnamed.body).toContain('天井で確定する賞を選んでください。');
      const ceilingCheap = await ceilingTable('4000', 't1');
      expect(ceilingCheap.status).toBe(200);
      expect((await get(`${page}?step=review`, { cookie })).body).toContain(
        '天井賞の交換コインは、確定する賞のうち最も低い 5,000コイン以上にしてください（「以上確定」と書くため）。',
      );
      const ceiling = await ceilingTable('5000', 't1');
      expect(ceiling.status).toBe(200);
      const ceilingTier = (
        await handle!.db
          .select({
            id: gachaTiers.id,
            ceilingAfter: gachaTiers.ceilingAfter,
            ceilingOf: gachaTiers.ceilingOf,
            quantity: gachaTiers.quantity,
          })
          .from(gachaTiers)
          .where(eq(gachaTiers.gachaId, PACK))
      ).find((t) => t.id.endsWith('t5'));
      expect(ceilingTier).toEqual({ id: `${PACK}.t5`, ceilingAfter: 30, ceilingOf: [`${PACK}.t1`], quantity: 4 });
      const ceilingReview = await get(`${page}?step=review`, { cookie });
      expect(ceilingReview.body).not.toContain('天井賞の交換コインは');
      // The editor shows the row back as it was typed: 30 lots, 「S賞以上」 chosen.
      const ceilingStep = { body: (await get(`${page}?step=tiers`, { cookie })).body.replaceAll('<!-- -->', '') };
      expect(ceilingStep.body).toMatch(/name="tiers\.2\.ceilingAfter"[^>]*value="30"/);
      expect(ceilingStep.body).toMatch(/<option value="t1" selected="">S賞以上<\/option>/);
      const tiers = await postForm(
        page,
        { intent: 'tiers', ...tierFields([regular('t1', 'S賞', '1', '5000'), regular('t2', 'B賞', '9', '50')]) },
        { cookie },
      );
      expect(tiers.status).toBe(200);
      expect(tiers.body).toContain('賞を保存しました。');
      // 順番 reorders the rows: B賞 put first becomes rank 1; then back again.
      const rankOf = async () =>
        Object.fromEntries(
          (
            await handle!.db
              .select({ id: gachaTiers.id, rank: gachaTiers.rank })
              .from(gachaTiers)
              .where(eq(gachaTiers.gachaId, PACK))
          ).map((t) => [t.id.slice(PACK.length + 1), t.rank]),
        );
      expect(await rankOf()).toEqual({ t1: 1, t2: 2 });
      const swapped = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([
            { ...regular('t1', 'S賞', '1', '5000'), order: '2' },
            { ...regular('t2', 'B賞', '9', '50'), order: '1' },
          ]),
        },
        { cookie },
      );
      expect(swapped.status).toBe(200);
      expect(await rankOf()).toEqual({ t1: 2, t2: 1 });
      await postForm(
        page,
        { intent: 'tiers', ...tierFields([regular('t1', 'S賞', '1', '5000'), regular('t2', 'B賞', '9', '50')]) },
        { cookie },
      );
      expect(await rankOf()).toEqual({ t1: 1, t2: 2 });
      const tampered = await postForm(
        page,
        {
          intent: 'tiers',
          ...tierFields([{ ...regular('t1', 'S賞', '1', '5000'), cardImagePath: '/../../etc/passwd' }]),
        },
        { cookie },
      );
      expect(tampered.status).toBe(400);

      // Uploads: not an image, too large, then a real one (re-encoded as WebP, served immutable).
      const text = await upload(
        page,
        { intent: 'pack-image' },
        { bytes: new TextEncoder().encode('%PDF-1.4 not an image'), name: 'x.png', type: 'image/png' },
        cookie,
      );
      expect(text.status).toBe(422);
      expect(text.body).toContain('画像として読めないファイルです');
      const huge = await upload(
        page,
        { intent: 'pack-image' },
        { bytes: new Uint8Array(8_200_000), name: 'big.png', type: 'image/png' },
        cookie,
      );
      expect(huge.status).toBe(413);
      expect(huge.body).toContain('画像が大きすぎます');
      const [untouched] = await handle!.db
        .select({ imagePath: gachas.imagePath })
        .from(gachas)
        .where(eq(gachas.id, PACK));
      expect(untouched!.imagePath).toBe('');
      const png = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#e03060' } })
        .png()
        .toBuffer();
      const stored = await upload(
        page,
        { intent: 'pack-image' },
        { bytes: png, name: 'pack.png', type: 'image/png' },
        cookie,
      );
      expect(stored.status).toBe(200);
      const [withImage] = await handle!.db
        .select({ imagePath: gachas.imagePath })
        .from(gachas)
        .where(eq(gachas.id, PACK));
      expect(withImage!.imagePath).toMatch(/^\/media\/packs\/[0-9a-f-]{36}\.webp$/);
      const served = await fetch(shopUrl() + withImage!.imagePath);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toContain('immutable');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1600, 800]);
      for (const key of ['t1', 't2'])
        expect(
          (
            await upload(
              page,
              { intent: 'tier-image', tierKey: key },
              { bytes: png, name: `${key}.png`, type: 'image/png' },
              cookie,
            )
          ).status,
        ).toBe(200);

      // Publishing waits for the checks: the stock is short until the cards are received.
      const short = await postForm(page, { intent: 'publish' }, { cookie });
      expect(short.status).toBe(422);
      expect(short.body).toContain('公開前チェックを通っていない項目があります: 在庫が口数をまかなえる');
      await receiveStock(handle!.db, { cardName: `${PACK} S賞`, count: 1, valueCoins: 5000 });
      await receiveStock(handle!.db, { cardName: `${PACK} B賞`, count: 9, valueCoins: 50 });
      // Its projected margin is negative (¥2,000 of sales, ¥3,000 of shipping): publishing needs the
      // confirmation's box ticked, and the entry records the figures and the acknowledgement.
      const unacknowledged = await postForm(page, { intent: 'publish' }, { cookie });
      expect(unacknowledged.status).toBe(422);
      expect(unacknowledged.body).toContain('予想利益がマイナス（−¥1,072）です。');
      expect((await handle!.db.select().from(gachas).where(eq(gachas.id, PACK)))[0]!.status).toBe('draft');
      const published = await postForm(page, { intent: 'publish', acknowledgeNegativeMargin: 'on' }, { cookie });
      expect(published.status).toBe(200);
      expect(published.body).toContain('公開しました（10口）');
      const [publishEntry] = await handle!.db
        .select({ after: adminAuditLog.after })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.action, 'pack.publish'))
        .orderBy(desc(adminAuditLog.id))
        .limit(1);
      expect((publishEntry!.after as { review: unknown }).review).toEqual({
        marginYen: -1072,
        marginRate: -0.536,
        returnRate: 2.725,
        negativeMarginAcknowledged: true,
      });
      expect((await get(`/gacha/${GENRE}/${PACK}`)).status).toBe(200);

      // Published: every step is refused with the editor's words, and nothing changed.
      const before = await handle!.db
        .select()
        .from(gachaTiers)
        .where(eq(gachaTiers.gachaId, PACK))
        .orderBy(asc(gachaTiers.id));
      const change = await postForm(
        page,
        { intent: 'tiers', ...tierFields([regular('t1', 'S賞', '10', '5000')]) },
        { cookie },
      );
      expect(change.status).toBe(409);
      expect(change.body).toContain('公開済みのパックの内容（賞・口数・価格など）は変更できません');
      const rename = await postForm(
        page,
        { intent: 'basics', genreId: GENRE, title: '改名', description: '' },
        { cookie },
      );
      expect(rename.status).toBe(409);
      expect(
        await handle!.db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, PACK)).orderBy(asc(gachaTiers.id)),
      ).toEqual(before);
      expect(
        (await upload(page, { intent: 'pack-image' }, { bytes: png, name: 'p.png', type: 'image/png' }, cookie)).status,
      ).toBe(409);
      expect((await postForm(page, { intent: 'publish' }, { cookie })).status).toBe(409);
      expect((await postForm(page, { intent: 'explode' }, { cookie })).status).toBe(400);
      // A cross-site post changes nothing either.
      const crossSite = await postForm(page, { intent: 'end' }, { cookie, origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      const [still] = await handle!.db.select({ status: gachas.status }).from(gachas).where(eq(gachas.id, PACK));
      expect(still!.status).toBe('on_sale');

      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, PACK))
        .orderBy(asc(adminAuditLog.id));
      expect(audit.map((a) => a.action)).toEqual([
        'pack.draft.create',
        'pack.draft.update',
        // The ゾロ目 table, the extras' tables (too many, then right), the 天井 tables (too cheap, then right), the
        // table, the reordered table, back again.
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.tiers',
        'pack.draft.update',
        'pack.draft.tier-image',
        'pack.draft.tier-image',
        'pack.publish',
      ]);
      // Ending it from the editor: audited, the pack is over.
      const ended = await postForm(page, { intent: 'end' }, { cookie });
      expect(ended.status).toBe(200);
      expect(ended.body).toContain('このパックの販売を終了しました');
    });
  },
);
