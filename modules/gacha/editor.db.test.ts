// The pack editor on a real database (decision 030): a draft written step by step (audited), refused
// rows with Japanese field messages, the numbers before publishing, the pre-publish checks (whole
// definition, images, stock, 景品表示法 words), publishing a draft with a キリ番賞, and a published
// pack that no step can change. A copy starts a new draft.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { ensureGenre } from '#tests/fixtures';
import { adminAuditLog, gachaLots, gachas, gachaTiers } from '#db/schema';
import {
  commandLineOperator,
  copyPackAsOperator,
  createDraftAsOperator,
  publishPackAsOperator,
  setDraftTierImageAsOperator,
  setDraftTiersAsOperator,
  updateDraftAsOperator,
} from '#modules/admin';
import {
  DEFAULT_FORBIDDEN_PACK_WORDS,
  packForEditor,
  packNumbers,
  packTiersSchema,
  prePublishChecks,
  receiveStock,
  tierRowOf,
  type TierRow,
} from './index';

const handle = useTestDatabase('pack_editor', { poolSize: 2, invariants: 'afterEach' });
const operator = commandLineOperator();
const rules = { paymentFeePercent: 3.6, shippingCostPerPrizeYen: 300 };

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

/** S 1口, A 2口, B 7口 (10 lots), a ラストワン賞 and a キリ番賞 at the 5th lot. */
function rowsFor(id: string): TierRow[] {
  return [
    row({
      key: 't1',
      label: 'S賞',
      cardName: `${id} S`,
      effect: 'rainbow',
      quantity: 1,
      conversionValue: 5000,
      cardCostYen: 4000,
      gradeCompany: 'PSA',
      gradeValue: '10',
    }),
    row({
      key: 't2',
      label: 'A賞',
      cardName: `${id} A`,
      effect: 'gold',
      quantity: 2,
      conversionValue: 1000,
      cardCostYen: 800,
    }),
    row({ key: 't3', label: 'B賞', cardName: `${id} B`, quantity: 7, conversionValue: 50, cardCostYen: 30 }),
    row({
      key: 't4',
      label: 'ラストワン賞',
      cardName: `${id} LO`,
      kind: 'lastone',
      conversionValue: 3000,
      cardCostYen: 2000,
    }),
    row({
      key: 't5',
      label: 'キリ番賞',
      cardName: `${id} KB`,
      kind: 'kiriban',
      kiribanAt: [5],
      conversionValue: 2000,
      cardCostYen: 1500,
    }),
  ];
}

async function draftWithTiers(id: string) {
  await ensureGenre(handle.db, 'pokemon');
  const created = await createDraftAsOperator(handle.db, operator, {
    id,
    genreId: 'pokemon',
    title: `エディタ ${id}`,
    description: '実物カードのオリパです。',
  });
  expect(created.ok).toBe(true);
  const sale = await updateDraftAsOperator(handle.db, operator, id, {
    pricePerDraw: 500,
    drawOptions: [10, 1],
    perMemberLimit: null,
    minRank: null,
    tags: ['new'],
    sortOrder: 0,
    saleStartsAt: null,
    saleEndsAt: null,
    drawMode: 'sequence',
  });
  expect(sale.ok).toBe(true);
  await updateDraftAsOperator(handle.db, operator, id, { imagePath: '/demo/packs/pack-01.svg' });
  const tiers = await setDraftTiersAsOperator(handle.db, operator, id, rowsFor(id));
  expect(tiers.ok).toBe(true);
}

async function stockFor(id: string) {
  for (const r of rowsFor(id))
    await receiveStock(handle.db, {
      cardName: r.cardName,
      cardGrade: r.gradeCompany ? `${r.gradeCompany}${r.gradeValue}` : null,
      count: r.kind === 'regular' ? r.quantity : r.kind === 'kiriban' ? r.kiribanAt.length : 1,
      valueCoins: r.conversionValue,
    });
}

const imageExists = async (path: string) => path.startsWith('/demo/');
/** CERTIFIED_PRIZE_MIN_COINS' default: the S賞 here (PSA10, 5,000 coins) is below it. */
const certifiedPrizeMinCoins = 10_000;

describe('pack editor', () => {
  it('writes a draft step by step, each step one audit entry, with its lots and first キリ番', async () => {
    await draftWithTiers('ed-steps');
    const [pack] = await handle.db.select().from(gachas).where(eq(gachas.id, 'ed-steps'));
    expect(pack).toMatchObject({
      status: 'draft',
      totalLots: 10,
      remainingLots: 10,
      kiribanNext: 5,
      pricePerDraw: 500,
      drawOptions: [1, 10],
    });
    const tiers = await handle.db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, 'ed-steps'));
    expect(tiers.find((t) => t.id === 'ed-steps.t1')).toMatchObject({ rank: 1, cardGrade: 'PSA10', cardCostYen: 4000 });
    expect(tiers.find((t) => t.id === 'ed-steps.t4')).toMatchObject({ rank: 0, isLastOne: true, effect: 'lastone' });
    expect(tiers.find((t) => t.id === 'ed-steps.t5')).toMatchObject({ kiribanAt: [5], quantity: 1 });
    const audit = await handle.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetType, 'gacha'), eq(adminAuditLog.targetId, 'ed-steps')));
    expect(audit.map((a) => a.action).sort()).toEqual(
      ['pack.draft.create', 'pack.draft.tiers', 'pack.draft.update', 'pack.draft.update'].sort(),
    );
    // The editor reads back what it wrote.
    const found = await packForEditor(handle.db, 'ed-steps');
    expect(found!.definition.tiers.map(tierRowOf).map((r) => r.key)).toEqual(['t1', 't2', 't3', 't5', 't4']);
  });

  it('refuses bad tier rows with Japanese messages on the right field', () => {
    const parsed = packTiersSchema.safeParse([
      row({ key: 't1', label: '', cardName: 'x' }),
      row({ key: 't2', label: 'A賞', cardName: 'y', quantity: 0 }),
      row({ key: 't3', label: 'K', cardName: 'z', kind: 'kiriban', kiribanAt: [] }),
      row({ key: 't4', label: 'G', cardName: 'w', gradeCompany: 'PSA', gradeValue: '' }),
    ]);
    expect(parsed.success).toBe(false);
    const byPath = Object.fromEntries(parsed.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byPath['0.label']).toBe('賞の名前（S賞など）を入力してください。');
    expect(byPath['1.quantity']).toBe('数量は1以上にしてください。');
    expect(byPath['2.kiribanAt']).toMatch(/キリ番賞には何口目か/);
    expect(byPath['3.gradeValue']).toMatch(/鑑定グレード/);
    expect(packTiersSchema.safeParse([]).error?.issues[0]?.message).toBe('賞を1つ以上入力してください。');
  });

  it('computes 還元率, the value ranges and the margin', async () => {
    await draftWithTiers('ed-numbers');
    const { definition } = (await packForEditor(handle.db, 'ed-numbers'))!;
    const numbers = packNumbers(definition, rules);
    expect(numbers.totalLots).toBe(10);
    expect(numbers.salesCoins).toBe(5000);
    // 5000 + 2×1000 + 7×50 + 3000 + 2000
    expect(numbers.prizeValueCoins).toBe(12_350);
    expect(numbers.returnRate).toBeCloseTo(2.47);
    expect(numbers.perDraw).toEqual({ min: 50, max: 5000, mean: 735, median: 50 });
    expect(numbers.options).toEqual([
      { count: 1, price: 500, min: 50, mean: 735, max: 5000 },
      { count: 10, price: 5000, min: 7350, mean: 7350, max: 7350 },
    ]);
    expect(numbers.tiers.find((t) => t.key === 't1')).toMatchObject({ chance: 0.1, extra: false });
    // An extra prize's chance per lot (issue 34 item 3): the ラストワン賞 goes with one lot of the pack's.
    expect(numbers.tiers.find((t) => t.key === 't4')).toMatchObject({ chance: 1 / numbers.totalLots, extra: true });
    // Cards 4000 + 1600 + 210 + 2000 + 1500; fee 3.6% of 5000; 12 prizes × 300
    expect(numbers.margin).toEqual({
      cardCostYen: 9310,
      feesYen: 180,
      shippingYen: 3600,
      marginYen: 5000 - 9310 - 180 - 3600,
      marginRate: (5000 - 9310 - 180 - 3600) / 5000,
      missingCost: [],
    });
  });

  it('checks before publishing: images, stock, forbidden words, the whole definition', async () => {
    await draftWithTiers('ed-checks');
    await updateDraftAsOperator(handle.db, operator, 'ed-checks', {
      genreId: 'pokemon',
      title: '１００％当たる！確定オリパ',
      description: '還元率150%',
    });
    await setDraftTierImageAsOperator(handle.db, operator, 'ed-checks', 't2', '/media/packs/missing.webp');
    const checks = (await prePublishChecks(handle.db, 'ed-checks', {
      forbiddenWords: DEFAULT_FORBIDDEN_PACK_WORDS,
      imageExists,
      certifiedPrizeMinCoins,
    }))!;
    const of = (key: string) => checks.find((c) => c.key === key)!;
    expect(of('definition').ok).toBe(true);
    expect(of('prizes').ok).toBe(true);
    expect(of('images')).toMatchObject({ ok: false, problems: ['A賞（ed-checks A）の写真がありません。'] });
    expect(of('stock').ok).toBe(false);
    expect(of('stock').problems).toHaveLength(5);
    expect(of('copy').problems).toEqual([
      'タイトルに「確定」があります。',
      'タイトルに「100%」があります。',
      expect.stringMatching(/^説明の「還元率150%」: このオリパの還元率は147\.0%です/),
    ]);

    await stockFor('ed-checks');
    await setDraftTierImageAsOperator(handle.db, operator, 'ed-checks', 't2', '/demo/cards/card-02.svg');
    await updateDraftAsOperator(handle.db, operator, 'ed-checks', {
      genreId: 'pokemon',
      title: '年末オリパ',
      description: '',
    });
    const again = (await prePublishChecks(handle.db, 'ed-checks', {
      forbiddenWords: DEFAULT_FORBIDDEN_PACK_WORDS,
      imageExists,
      certifiedPrizeMinCoins,
    }))!;
    expect(again.filter((c) => !c.ok)).toEqual([]);

    // A キリ番 at or past the last lot is refused by the whole check and by publishing itself.
    const rows = rowsFor('ed-checks');
    rows[4] = { ...rows[4]!, kiribanAt: [10] };
    await setDraftTiersAsOperator(handle.db, operator, 'ed-checks', rows);
    const whole = (await prePublishChecks(handle.db, 'ed-checks', {
      forbiddenWords: [],
      imageExists,
      certifiedPrizeMinCoins,
    }))!;
    expect(whole.find((c) => c.key === 'definition')!.problems[0]).toMatch(/キリ番 10 口目は総口数（10口）より前/);
    const refused = await publishPackAsOperator(handle.db, operator, 'ed-checks');
    expect(refused).toMatchObject({ ok: false, code: 'PACK_INVALID' });
    expect((await handle.db.select().from(gachaLots).where(eq(gachaLots.gachaId, 'ed-checks'))).length).toBe(0);
  });

  it('refuses a draw option larger than the lots before publishing, naming the option and the lots', async () => {
    await draftWithTiers('ed-draws');
    await stockFor('ed-draws');
    const sale = (drawOptions: number[]) =>
      updateDraftAsOperator(handle.db, operator, 'ed-draws', {
        pricePerDraw: 500,
        drawOptions,
        perMemberLimit: null,
        minRank: null,
        tags: [],
        sortOrder: 0,
        saleStartsAt: null,
        saleEndsAt: null,
        drawMode: 'sequence',
      });
    const draws = async () =>
      (await prePublishChecks(handle.db, 'ed-draws', {
        forbiddenWords: [],
        imageExists,
        certifiedPrizeMinCoins,
      }))!.find((c) => c.key === 'draws')!;
    await sale([1, 10, 100]);
    expect(await draws()).toMatchObject({
      ok: false,
      problems: ['「100連」は総口数（10口）より多いため選べません。引く回数を10以下にしてください。'],
    });
    await sale([1, 10]);
    expect(await draws()).toMatchObject({ ok: true, problems: [] });
  });

  it('publishes a draft with its キリ番賞, and then no step changes it; a copy is a new draft', async () => {
    await draftWithTiers('ed-publish');
    await stockFor('ed-publish');
    const published = await publishPackAsOperator(handle.db, operator, 'ed-publish');
    expect(published).toMatchObject({ ok: true, value: { totalLots: 10, status: 'on_sale' } });
    const before = await packForEditor(handle.db, 'ed-publish');

    const steps = [
      () =>
        updateDraftAsOperator(handle.db, operator, 'ed-publish', {
          genreId: 'pokemon',
          title: '変更',
          description: '',
        }),
      () => setDraftTiersAsOperator(handle.db, operator, 'ed-publish', rowsFor('ed-publish').slice(0, 3)),
      () => setDraftTierImageAsOperator(handle.db, operator, 'ed-publish', 't1', '/demo/cards/card-09.svg'),
    ];
    for (const step of steps) expect(await step()).toMatchObject({ ok: false, code: 'NOT_DRAFT' });
    expect(await packForEditor(handle.db, 'ed-publish')).toEqual(before);
    expect((await handle.db.select().from(gachaLots).where(eq(gachaLots.gachaId, 'ed-publish'))).length).toBe(10);

    const copied = await copyPackAsOperator(handle.db, operator, 'ed-publish', { id: 'ed-publish-2', title: '第2弾' });
    expect(copied.ok).toBe(true);
    const copy = (await packForEditor(handle.db, 'ed-publish-2'))!;
    expect(copy.pack).toMatchObject({
      status: 'draft',
      title: '第2弾',
      commitment: null,
      totalLots: 10,
      kiribanNext: 5,
    });
    expect(copy.definition.tiers.map((t) => [t.key, t.quantity, t.kiribanAt ?? null])).toEqual(
      before!.definition.tiers.map((t) => [t.key, t.quantity, t.kiribanAt ?? null]),
    );
    expect(
      await copyPackAsOperator(handle.db, operator, 'ed-publish', { id: 'ed-publish-2', title: 'x' }),
    ).toMatchObject({ ok: false, code: 'GACHA_EXISTS' });
  });
});
