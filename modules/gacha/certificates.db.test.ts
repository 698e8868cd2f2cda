// Proof that the hits exist (issue 33 item 8) on a real database: the pack editor refuses to publish a
// graded card worth CERTIFIED_PRIZE_MIN_COINS or more without its certificate number and its photo kept
// as uploaded (the pre-publish check and publishing itself, 422 in Japanese), and publishes it with them;
// the tier step keeps the photo while the card stays graded, a copy keeps both; the pack page reads them;
// the media clean-up keeps the original; and once published, neither the editor nor any UPDATE changes them.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { ensureGenre } from '#tests/fixtures';
import { adminAuditLog, gachaTiers } from '#db/schema';
import {
  commandLineOperator,
  copyPackAsOperator,
  createDraftAsOperator,
  publishPackAsOperator,
  setDraftTierImageAsOperator,
  setDraftTiersAsOperator,
  updateDraftAsOperator,
} from '#modules/admin';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import type { Refusal } from '#modules/kernel';
import {
  catalogueImagesInUse,
  getGachaDetail,
  packForEditor,
  prePublishChecks,
  receiveStock,
  type TierRow,
} from './index';

const handle = useTestDatabase('tier_certificates', { invariants: 'afterEach' });
const operator = commandLineOperator();
const certifiedPrizeMinCoins = 10_000;
const SHA = 'c0ffee'.padEnd(64, '0');
const ORIGINAL = { sha256: SHA, originalPath: `/media/originals/${SHA}.jpg` };
const imageExists = async (path: string) => path.startsWith('/demo/') || path === ORIGINAL.originalPath;

function row(over: Partial<TierRow> & Pick<TierRow, 'key' | 'label' | 'cardName'>): TierRow {
  return {
    kind: 'regular',
    effect: 'normal',
    cardSet: '',
    cardNumber: '',
    rarity: '',
    gradeCompany: '',
    gradeValue: '',
    cardCondition: '',
    certificateNumber: '',
    cardImagePath: '/demo/cards/card-01.svg',
    quantity: 1,
    conversionValue: 100,
    cardCostYen: null,
    kiribanAt: [],
    personalKiribanAt: [],
    pitariOf: '',
    ceilingAfter: null,
    ceilingFrom: '',
    ...over,
  };
}

/** S賞 a PSA10 worth 50,000 coins (needs proof), A賞 a PSA9 worth 3,000 (does not), B賞 ungraded. */
const rowsFor = (id: string, s: Partial<TierRow> = {}) => [
  row({
    key: 's',
    label: 'S賞',
    cardName: `${id} リザードン`,
    gradeCompany: 'PSA',
    gradeValue: '10',
    conversionValue: 50_000,
    ...s,
  }),
  row({
    key: 'a',
    label: 'A賞',
    cardName: `${id} ピカチュウ`,
    gradeCompany: 'PSA',
    gradeValue: '9',
    conversionValue: 3000,
  }),
  row({ key: 'b', label: 'B賞', cardName: `${id} コイキング`, quantity: 8, conversionValue: 50 }),
];

async function draft(id: string, s: Partial<TierRow> = {}) {
  await ensureGenre(handle.db, 'pokemon');
  expect(
    (await createDraftAsOperator(handle.db, operator, { id, genreId: 'pokemon', title: `鑑定 ${id}`, description: '' }))
      .ok,
  ).toBe(true);
  await updateDraftAsOperator(handle.db, operator, id, {
    pricePerDraw: 10_000,
    drawOptions: [1],
    perMemberLimit: null,
    minRank: null,
    tags: [],
    sortOrder: 0,
    saleStartsAt: null,
    saleEndsAt: null,
    drawMode: 'sequence',
  });
  await updateDraftAsOperator(handle.db, operator, id, { imagePath: '/demo/packs/pack-01.svg' });
  expect(await setDraftTiersAsOperator(handle.db, operator, id, rowsFor(id, s))).toMatchObject({ ok: true });
  for (const r of rowsFor(id, s))
    await receiveStock(handle.db, {
      cardName: r.cardName,
      cardGrade: r.gradeCompany ? `${r.gradeCompany}${r.gradeValue}` : null,
      count: r.quantity,
      valueCoins: r.conversionValue,
    });
}

const checksOf = async (id: string) =>
  (await prePublishChecks(handle.db, id, { forbiddenWords: [], imageExists, certifiedPrizeMinCoins }))!;
const publish = (id: string) => publishPackAsOperator(handle.db, operator, id, undefined, { certifiedPrizeMinCoins });
const tierOf = async (id: string, key: string) =>
  (
    await handle.db
      .select()
      .from(gachaTiers)
      .where(eq(gachaTiers.id, `${id}.${key}`))
  )[0]!;

describe('certified prizes in the pack editor', () => {
  it('refuses to publish a graded high tier without its certificate and photo, and publishes it with them', async () => {
    await draft('cert-flow');
    const missing = (await checksOf('cert-flow')).find((c) => c.key === 'certificates')!;
    expect(missing).toEqual({
      key: 'certificates',
      label: '高額な鑑定品（交換10,000コイン以上）の鑑定番号と写真',
      ok: false,
      problems: [
        'S賞（cert-flow リザードン PSA10）: 鑑定番号を入力してください（「賞」の段階）。',
        'S賞（cert-flow リザードン PSA10）: カードの写真を登録してください（「画像」の段階。鑑定品の写真は原本のまま保存します）。',
      ],
    });
    // Publishing checks again under the pack's lock: refused whole, 422, in the editor's words.
    const refused = await publish('cert-flow');
    expect(refused).toMatchObject({ ok: false, code: 'PACK_INVALID' });
    const words = describeRefusal(refused as Refusal<RefusalCode>);
    expect(words.status).toBe(422);
    expect(words.message).toContain('パックの内容に不備があるため公開できません（何も変更していません）');
    expect(words.message).toContain('S賞（cert-flow リザードン PSA10）: 鑑定番号を入力してください');
    expect((await packForEditor(handle.db, 'cert-flow'))!.pack.status).toBe('draft');

    // The number alone is not enough: the photo is still missing.
    await setDraftTiersAsOperator(
      handle.db,
      operator,
      'cert-flow',
      rowsFor('cert-flow', { certificateNumber: '12345678' }),
    );
    expect((await checksOf('cert-flow')).find((c) => c.key === 'certificates')!.problems).toEqual([
      'S賞（cert-flow リザードン PSA10）: カードの写真を登録してください（「画像」の段階。鑑定品の写真は原本のまま保存します）。',
    ]);
    expect(await publish('cert-flow')).toMatchObject({ ok: false, code: 'PACK_INVALID' });

    // The photo, as the image step records it: the display copy, and the original's hash and path.
    expect(
      await setDraftTierImageAsOperator(handle.db, operator, 'cert-flow', 's', '/demo/cards/card-02.svg', ORIGINAL),
    ).toMatchObject({ ok: true });
    const [entry] = await handle.db
      .select({ after: adminAuditLog.after })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, 'pack.draft.tier-image'));
    expect(entry!.after).toEqual({ tier: 's', imagePath: '/demo/cards/card-02.svg', original: ORIGINAL });
    expect((await checksOf('cert-flow')).filter((c) => !c.ok)).toEqual([]);
    expect(await publish('cert-flow')).toMatchObject({ ok: true, value: { totalLots: 10, status: 'on_sale' } });

    // The pack page reads the certificate and the photo from publication on.
    const page = (await getGachaDetail(handle.db, 'cert-flow'))!;
    expect(page.tiers.find((t) => t.id === 'cert-flow.s')).toMatchObject({
      certificate: { company: 'PSA', number: '12345678' },
      photo: ORIGINAL,
    });
    expect(page.tiers.find((t) => t.id === 'cert-flow.a')).toMatchObject({ certificate: null, photo: null });
    // The media clean-up keeps the original while the tier names it.
    expect(await catalogueImagesInUse(handle.db, [`${SHA}.jpg`, `${'d'.repeat(64)}.jpg`])).toEqual(
      new Set([`${SHA}.jpg`]),
    );
  });

  it('refuses a graded high tier of several cards (one certificate is one card)', async () => {
    await draft('cert-many', { quantity: 2 });
    const check = (await checksOf('cert-many')).find((c) => c.key === 'certificates')!;
    expect(check.problems[0]).toBe(
      'S賞（cert-many リザードン PSA10）: 鑑定書は1枚ごとに違うため、証明の必要な鑑定品は1枚ずつ別の賞にしてください（今は2枚）。',
    );
    expect(await publish('cert-many')).toMatchObject({ ok: false, code: 'PACK_INVALID' });
  });

  it('keeps the photo while the card stays graded, drops it when it is not; a copy keeps both', async () => {
    await draft('cert-keep', { certificateNumber: '0012345678', gradeCompany: 'BGS', gradeValue: '9.5' });
    await setDraftTierImageAsOperator(handle.db, operator, 'cert-keep', 's', '/demo/cards/card-02.svg', ORIGINAL);
    // Saving the tiers again (a label changed) keeps the photo: the form never carries a hash.
    const renamed = rowsFor('cert-keep', {
      label: 'SS賞',
      certificateNumber: '0012345678',
      gradeCompany: 'BGS',
      gradeValue: '9.5',
      cardImagePath: '/demo/cards/card-02.svg',
    });
    await setDraftTiersAsOperator(handle.db, operator, 'cert-keep', renamed);
    expect(await tierOf('cert-keep', 's')).toMatchObject({
      label: 'SS賞',
      certificateCompany: 'BGS',
      certificateNumber: '0012345678',
      cardPhotoSha256: SHA,
      cardPhotoOriginalPath: ORIGINAL.originalPath,
    });
    const copied = await copyPackAsOperator(handle.db, operator, 'cert-keep', { id: 'cert-keep-2', title: '再販' });
    expect(copied.ok).toBe(true);
    expect(await tierOf('cert-keep-2', 's')).toMatchObject({
      certificateCompany: 'BGS',
      certificateNumber: '0012345678',
      cardPhotoSha256: SHA,
    });
    // No longer graded: no certificate, no original (its hash would prove nothing).
    await setDraftTiersAsOperator(
      handle.db,
      operator,
      'cert-keep',
      rowsFor('cert-keep', { gradeCompany: '', gradeValue: '', cardImagePath: '/demo/cards/card-02.svg' }),
    );
    expect(await tierOf('cert-keep', 's')).toMatchObject({
      certificateCompany: null,
      certificateNumber: null,
      cardPhotoSha256: null,
      cardPhotoOriginalPath: null,
      cardImagePath: '/demo/cards/card-02.svg',
    });
    // A photo uploaded for an ungraded card clears any original too.
    await setDraftTierImageAsOperator(handle.db, operator, 'cert-keep-2', 's', '/demo/cards/card-03.svg');
    expect(await tierOf('cert-keep-2', 's')).toMatchObject({ cardPhotoSha256: null, cardPhotoOriginalPath: null });
  });

  it('never changes a published tier’s certificate or photo: not through the editor, not by any UPDATE', async () => {
    await draft('cert-fixed', { certificateNumber: '87654321' });
    await setDraftTierImageAsOperator(handle.db, operator, 'cert-fixed', 's', '/demo/cards/card-02.svg', ORIGINAL);
    expect(await publish('cert-fixed')).toMatchObject({ ok: true });
    const before = await tierOf('cert-fixed', 's');

    const other = { sha256: 'e'.repeat(64), originalPath: `/media/originals/${'e'.repeat(64)}.png` };
    expect(
      await setDraftTiersAsOperator(
        handle.db,
        operator,
        'cert-fixed',
        rowsFor('cert-fixed', { certificateNumber: '11111111' }),
      ),
    ).toMatchObject({ ok: false, code: 'NOT_DRAFT' });
    expect(
      await setDraftTierImageAsOperator(handle.db, operator, 'cert-fixed', 's', '/demo/cards/card-03.svg', other),
    ).toMatchObject({ ok: false, code: 'NOT_DRAFT' });
    expect(describeRefusal({ ok: false, code: 'NOT_DRAFT', details: {} } as Refusal<RefusalCode>).status).toBe(409);

    // Any other writer, the shop's own role included, is refused by the database.
    for (const change of [
      sql`update gacha_tiers set certificate_number = '11111111' where id = 'cert-fixed.s'`,
      sql`update gacha_tiers set certificate_company = null, certificate_number = null where id = 'cert-fixed.s'`,
      sql`update gacha_tiers set card_photo_sha256 = ${other.sha256}, card_photo_original_path = ${other.originalPath} where id = 'cert-fixed.s'`,
    ])
      await expect(
        handle.db.execute(change).catch((error: Error) => Promise.reject(error.cause ?? error)),
      ).rejects.toThrow(/fixed by its pack's commitment/);
    expect(await tierOf('cert-fixed', 's')).toEqual(before);
    // Other columns of a published tier are not the trigger's (publication sets the stock card).
    await handle.db.execute(sql`update gacha_tiers set card_condition = '美品' where id = 'cert-fixed.s'`);
    // A draft's tier changes freely.
    await draft('cert-free', { certificateNumber: '22222222' });
    await handle.db.execute(sql`update gacha_tiers set certificate_number = '33333333' where id = 'cert-free.s'`);
    expect((await tierOf('cert-free', 's')).certificateNumber).toBe('33333333');
  });

  it('publishes from the command line as before: the rule is the editor’s', async () => {
    await draft('cert-cli');
    expect(await publishPackAsOperator(handle.db, operator, 'cert-cli')).toMatchObject({ ok: true });
  });
});
