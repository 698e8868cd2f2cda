// Demo data for a fresh shop: genres, packs with original generated art, content pages. Loaded once.
// Two graded hits carry their certificate and a photo kept as it is, hashed here like an upload (./proofs.ts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '#db/client';
import { projectRootOf } from '#db/project-root';
import type { Logger } from '#server/logger';
import { appMeta } from '#db/app-meta';
import { legalAndEditorialPages } from './pages';
import { demoCard } from './cards';
import { demoExtraTiers } from './extra-tiers';
import { DEMO_CERTIFIED_TIERS } from './proofs';
import {
  createPack,
  publishPack,
  refreshAllRemaining,
  addGenres,
  packExists,
  deleteUnpublishedPacks,
  receiveStock,
  setDraftTierImage,
  type BeaconPublishTerms,
  type PackDefinition,
} from '#modules/gacha';
import { addDocuments } from '#modules/content';
import { addSystemMember } from '#modules/identity/server';
import { grantCoins, type CoinLifetimes } from '#modules/wallet';
import { drawLots } from '#modules/draw';

export const DEMO_GENRES = [
  {
    id: 'pokemon',
    name: 'ポケモン',
    aliases: ['pokemon-card', 'pokeca'],
    iconPath: '/demo/genres/pokemon.svg',
    sortOrder: 1,
  },
  {
    id: 'onepiece',
    name: 'ワンピース',
    aliases: ['one-piece', 'op'],
    iconPath: '/demo/genres/onepiece.svg',
    sortOrder: 2,
  },
  { id: 'yugioh', name: '遊戯王', aliases: ['yu-gi-oh'], iconPath: '/demo/genres/yugioh.svg', sortOrder: 3 },
  { id: 'duelmasters', name: 'デュエマ', aliases: ['dm'], iconPath: '/demo/genres/duelmasters.svg', sortOrder: 4 },
  { id: 'weiss', name: 'ヴァイス', aliases: ['ws', 'weiss-schwarz'], iconPath: '/demo/genres/weiss.svg', sortOrder: 5 },
];

type DemoPack = {
  id: string;
  genreId: string;
  title: string;
  price: number;
  total: number;
  remaining: number;
  tags: ('new' | 'hot' | 'limited')[];
  lastOne?: boolean;
  /** キリ番賞 (decision 027): the lot numbers, in sale order, that win an extra card. */
  kiribanAt?: number[];
  /** 個人キリ番賞 (decision 088): a member's own lot numbers of the pack that win an extra card. */
  personalKiribanAt?: number[];
  /** ピタリ賞 (decision 088): the tier whose last lot wins an extra card. */
  pitariOf?: 'S' | 'A';
  /** 天井賞 (decision 089): this many lots in a row without S賞 or A賞 win an A賞-level card. */
  ceilingAfter?: number;
};

export const DEMO_PACKS: DemoPack[] = [
  {
    id: 'stellar-pokemon-001',
    genreId: 'pokemon',
    title: '星降る夜のハイレアオリパ',
    price: 500,
    total: 1000,
    remaining: 742,
    tags: ['hot'],
    // The demo member's draws take the 100th lot; the page counts down to the 500th.
    kiribanAt: [100, 500, 777],
  },
  {
    id: 'stellar-pokemon-002',
    genreId: 'pokemon',
    title: 'PSA10鑑定品！極上の一枚オリパ',
    price: 10000,
    total: 120,
    remaining: 9,
    tags: ['limited'],
    lastOne: true,
  },
  {
    id: 'stellar-pokemon-003',
    genreId: 'pokemon',
    title: 'はじめてのワンコインオリパ',
    price: 100,
    total: 3000,
    remaining: 2890,
    tags: ['new'],
  },
  {
    id: 'stellar-onepiece-001',
    genreId: 'onepiece',
    title: '大海原のパラレル大当たりオリパ',
    price: 1000,
    total: 500,
    remaining: 318,
    tags: ['hot'],
  },
  {
    id: 'stellar-onepiece-002',
    genreId: 'onepiece',
    title: 'リーダーカード コレクションオリパ',
    price: 3000,
    total: 200,
    remaining: 27,
    tags: [],
  },
  {
    id: 'stellar-yugioh-001',
    genreId: 'yugioh',
    title: '閃光のシークレットオリパ',
    price: 800,
    total: 800,
    remaining: 611,
    tags: ['new'],
    // Regulars' extras (issue 34): every member's own 10th and 30th lot, and the draw that empties S賞.
    personalKiribanAt: [10, 30],
    pitariOf: 'S',
  },
  {
    id: 'stellar-yugioh-002',
    genreId: 'yugioh',
    title: 'レリーフ大集合オリパ',
    price: 2000,
    total: 300,
    remaining: 0,
    tags: [],
    lastOne: true,
  },
  {
    id: 'stellar-duelmasters-001',
    genreId: 'duelmasters',
    title: '超次元ドリームオリパ',
    price: 500,
    total: 600,
    remaining: 455,
    tags: [],
    // 天井 (issue 34 item 1): 30 lots in a row without A賞 or better win an A賞-level card from its own stock.
    ceilingAfter: 30,
  },
  {
    id: 'stellar-duelmasters-002',
    genreId: 'duelmasters',
    title: '殿堂カード狙いオリパ',
    price: 1500,
    total: 250,
    remaining: 44,
    tags: ['limited'],
  },
  {
    id: 'stellar-weiss-001',
    genreId: 'weiss',
    title: 'サイン入り狙い撃ちオリパ',
    price: 1200,
    total: 400,
    remaining: 389,
    tags: ['new'],
  },
  {
    id: 'stellar-weiss-002',
    genreId: 'weiss',
    title: 'SP・SSP限定オリパ',
    price: 5000,
    total: 100,
    remaining: 63,
    tags: ['hot'],
  },
  {
    id: 'stellar-pokemon-004',
    genreId: 'pokemon',
    title: 'ラストワン目前！残りわずかオリパ',
    price: 2000,
    total: 150,
    remaining: 4,
    tags: ['hot'],
    lastOne: true,
  },
];

/** Tiers for a demo pack: a few big hits, more mid prizes, the rest small; values scale with the price. Each card keeps its one picture (db/demo/cards.ts). */
export function demoTiers(pack: DemoPack): PackDefinition['tiers'] {
  const card = (slot: number) => demoCard(pack.genreId, slot);
  const named = (slot: number, suffix = '') => `${card(slot).name} ${card(slot).rarity}${suffix}`;
  const s = Math.max(1, Math.round(pack.total * 0.005));
  const a = Math.max(2, Math.round(pack.total * 0.03));
  const b = Math.max(3, Math.round(pack.total * 0.12));
  const c = pack.total - s - a - b;
  const tiers: PackDefinition['tiers'] = [
    {
      key: 'S',
      label: 'S賞',
      rank: 1,
      effect: 'rainbow',
      cardName: named(0),
      cardImagePath: card(0).imagePath,
      rarity: card(0).rarity,
      cardGrade: 'PSA10',
      quantity: s,
      conversionValue: pack.price * 100,
    },
    {
      key: 'A',
      label: 'A賞',
      rank: 2,
      effect: 'gold',
      cardName: named(1),
      cardImagePath: card(1).imagePath,
      rarity: card(1).rarity,
      cardGrade: null,
      quantity: a,
      conversionValue: pack.price * 8,
    },
    {
      key: 'B',
      label: 'B賞',
      rank: 3,
      effect: 'silver',
      cardName: named(2),
      cardImagePath: card(2).imagePath,
      rarity: card(2).rarity,
      quantity: b,
      conversionValue: pack.price * 2,
    },
    {
      key: 'C',
      label: 'C賞',
      rank: 4,
      effect: 'normal',
      cardName: named(4),
      cardImagePath: card(4).imagePath,
      rarity: card(4).rarity,
      quantity: c,
      conversionValue: Math.max(1, Math.floor(pack.price * 0.3)),
    },
  ];
  tiers.push(...demoExtraTiers(pack, card, named));
  if (pack.lastOne) {
    tiers.push({
      key: 'LAST',
      label: 'ラストワン賞',
      rank: 0,
      effect: 'lastone',
      cardName: named(3, '（ラストワン限定）'),
      cardImagePath: card(3).imagePath,
      rarity: card(3).rarity,
      cardGrade: 'PSA10',
      quantity: 1,
      conversionValue: pack.price * 40,
      isLastOne: true,
    });
  }
  // The graded hits whose certificate the pack page shows (their photos are set before publication).
  return tiers.map((tier) => {
    const certified = DEMO_CERTIFIED_TIERS.find((c) => c.gachaId === pack.id && c.tierKey === tier.key);
    return certified ? { ...tier, certificateCompany: certified.company, certificateNumber: certified.number } : tier;
  });
}

/**
 * Gives a demo draft's graded hits their photos, kept as they are: public/demo/proofs/ served unchanged,
 * the SHA-256 of the file's bytes computed here. A missing file (a copy of the shop without public/) leaves
 * the tier without a photo; its certificate still shows.
 */
async function attachDemoProofs(db: Database, gachaId: string, tiers: PackDefinition['tiers'], logger: Logger) {
  for (const certified of DEMO_CERTIFIED_TIERS.filter((c) => c.gachaId === gachaId)) {
    const tier = tiers.find((t) => t.key === certified.tierKey);
    if (!tier) continue;
    const bytes = await readFile(
      path.join(projectRootOf(import.meta.url), 'public', 'demo', 'proofs', certified.file),
    ).catch(() => null);
    if (!bytes) {
      logger.warn({ file: certified.file }, 'demo data: a proof photo is missing');
      continue;
    }
    await setDraftTierImage(db, gachaId, tier.key, tier.cardImagePath, {
      sha256: createHash('sha256').update(bytes).digest('hex'),
      originalPath: `/demo/proofs/${certified.file}`,
    });
  }
}

const DEMO_BOT_ID = 'demo-member-bot';

/**
 * Loads the demo data unless it was loaded before (recorded in app_meta). Safe when two server
 * instances start together: the claim on the app_meta row decides which one loads. Packs are
 * published like an operator would, and a demo member draws from them so that the counts, the
 * sold-out pack and its public verification are real.
 * @example await loadDemoDataOnce(db, logger, { coinLifetimes: { paid: 180, free: 90 }, prizeDecisionDays: 14 })
 */
/** The shop's settings the demo data follows like any grant and draw (coin lifetimes, the prize window). */
export interface DemoRules {
  coinLifetimes: CoinLifetimes;
  prizeDecisionDays: number;
}

export async function loadDemoDataOnce(db: Database, logger: Logger, rules: DemoRules): Promise<boolean> {
  const claimed = await db
    .insert(appMeta)
    .values({ key: 'demo_data_v2', value: new Date().toISOString() })
    .onConflictDoNothing()
    .returning({ key: appMeta.key });
  if (claimed.length === 0) return false;
  await addGenres(db, DEMO_GENRES);
  await addDocuments(db, legalAndEditorialPages());
  // Packs listed by the first demo data (before lots existed) make way for published ones.
  await deleteUnpublishedPacks(
    db,
    DEMO_PACKS.map((p) => p.id),
  );
  await addSystemMember(db, { id: DEMO_BOT_ID, name: 'デモ会員', email: 'demo-member@example.invalid' });
  for (const [index, pack] of DEMO_PACKS.entries()) {
    if (await packExists(db, pack.id)) continue;
    const tiers = demoTiers(pack);
    await createPack(db, {
      id: pack.id,
      genreId: pack.genreId,
      title: pack.title,
      imagePath: `/demo/packs/pack-${String(index + 1).padStart(2, '0')}.svg`,
      description: `${pack.title}。全${pack.total.toLocaleString('ja-JP')}口、ハズレなし。`,
      pricePerDraw: pack.price,
      tags: pack.tags,
      sortOrder: index,
      saleStartsAt: new Date(Date.now() - (index + 1) * 86_400_000),
      tiers,
    });
    await attachDemoProofs(db, pack.id, tiers, logger);
    // The demo shop's shelf holds exactly the cards its packs promise (publishing reserves them).
    await db.transaction(async (tx) => {
      for (const tier of tiers)
        await receiveStock(tx, {
          cardName: tier.cardName,
          cardSet: tier.cardSet ?? null,
          cardNumber: tier.cardNumber ?? null,
          cardGrade: tier.cardGrade ?? null,
          count: tier.quantity,
          valueCoins: tier.conversionValue,
          note: 'デモデータ',
        });
    });
    await publishPack(db, pack.id, new Date(Date.now() - (index + 1) * 86_400_000));
    await drawAsDemoMember(db, pack, pack.total - pack.remaining, rules);
  }
  await refreshAllRemaining(db);
  logger.info({ genres: DEMO_GENRES.length, packs: DEMO_PACKS.length }, 'demo data loaded');
  return true;
}

async function drawAsDemoMember(db: Database, pack: DemoPack, lots: number, rules: DemoRules) {
  if (lots <= 0) return;
  const cost = lots * pack.price;
  await grantCoins(db, {
    lifetimeDays: rules.coinLifetimes,
    memberId: DEMO_BOT_ID,
    kind: 'paid',
    amount: cost,
    reason: 'operator_grant',
    counterAccount: 'adjustment',
    idempotencyKey: `demo:coins:${pack.id}`,
    memo: 'デモデータ',
  });
  let left = lots;
  let n = 0;
  for (const size of [100, 10, 1]) {
    while (left >= size) {
      const outcome = await drawLots(db, {
        decisionDays: rules.prizeDecisionDays,
        memberId: DEMO_BOT_ID,
        gachaId: pack.id,
        count: size,
        idempotencyKey: `demo:${pack.id}:${n++}`,
      });
      if (!outcome.ok) throw new Error(`demo draw failed: ${outcome.code}`);
      left -= size;
    }
  }
}

/** The demo's beacon pack (decision 081): each draw settled by a drand round that did not exist when it was accepted. */
export const DEMO_BEACON_PACK: DemoPack = {
  id: 'beacon-pokemon-001',
  genreId: 'pokemon',
  title: '未来の乱数で決まる ビーコン抽選オリパ',
  price: 300,
  total: 300,
  remaining: 300,
  tags: ['new'],
  lastOne: true,
};

/**
 * Publishes the demo's beacon pack once (its own app_meta claim, so a demo shop loaded before it gets it too),
 * when the shop has the beacon mode's terms (its drand chain and receipt key). Nobody draws from it here.
 * @example await loadDemoBeaconPackOnce(db, logger, services.beacon.publishTerms)
 */
export async function loadDemoBeaconPackOnce(
  db: Database,
  logger: Logger,
  beacon: BeaconPublishTerms | null,
): Promise<boolean> {
  if (!beacon) return false;
  const claimed = await db
    .insert(appMeta)
    .values({ key: 'demo_beacon_pack_v1', value: new Date().toISOString() })
    .onConflictDoNothing()
    .returning({ key: appMeta.key });
  if (claimed.length === 0 || (await packExists(db, DEMO_BEACON_PACK.id))) return false;
  const pack = DEMO_BEACON_PACK;
  const tiers = demoTiers(pack);
  await createPack(db, {
    id: pack.id,
    genreId: pack.genreId,
    title: pack.title,
    imagePath: '/demo/packs/pack-05.svg',
    description:
      `${pack.title}。全${pack.total.toLocaleString('ja-JP')}口、ハズレなし。どの口が当たるかは、引いた後に公開される` +
      '乱数ビーコン（drand）で決まります。店舗も含めて誰も事前に知ることができず、結果はあなたのスマホで検証できます。',
    pricePerDraw: pack.price,
    tags: pack.tags,
    sortOrder: DEMO_PACKS.length,
    drawMode: 'beacon',
    tiers,
  });
  await db.transaction(async (tx) => {
    for (const tier of tiers)
      await receiveStock(tx, {
        cardName: tier.cardName,
        cardSet: tier.cardSet ?? null,
        cardNumber: tier.cardNumber ?? null,
        cardGrade: tier.cardGrade ?? null,
        count: tier.quantity,
        valueCoins: tier.conversionValue,
        note: 'デモデータ',
      });
  });
  await publishPack(db, pack.id, new Date(), { beacon });
  logger.info({ gachaId: pack.id }, 'demo beacon pack published');
  return true;
}
