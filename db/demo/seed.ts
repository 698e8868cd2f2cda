// Demo data for a fresh shop: genres, packs with original generated art, content pages. Loaded once.
import type { Database } from '../client';
import type { Logger } from '../../server/logger';
import { appMeta, genres, gachas, contentDocuments } from '../schema';
import { legalAndEditorialPages } from './pages';

export const DEMO_GENRES = [
  { id: 'pokemon', name: 'ポケモン', aliases: ['pokemon-card', 'pokeca'], iconPath: '/demo/genres/pokemon.svg', sortOrder: 1 },
  { id: 'onepiece', name: 'ワンピース', aliases: ['one-piece', 'op'], iconPath: '/demo/genres/onepiece.svg', sortOrder: 2 },
  { id: 'yugioh', name: '遊戯王', aliases: ['yu-gi-oh'], iconPath: '/demo/genres/yugioh.svg', sortOrder: 3 },
  { id: 'duelmasters', name: 'デュエマ', aliases: ['dm'], iconPath: '/demo/genres/duelmasters.svg', sortOrder: 4 },
  { id: 'weiss', name: 'ヴァイス', aliases: ['ws', 'weiss-schwarz'], iconPath: '/demo/genres/weiss.svg', sortOrder: 5 },
];

type DemoPack = { id: string; genreId: string; title: string; price: number; total: number; remaining: number; tags: string[]; status?: 'on_sale' | 'sold_out' };

export const DEMO_PACKS: DemoPack[] = [
  { id: 'stellar-pokemon-001', genreId: 'pokemon', title: '星降る夜のハイレアオリパ', price: 500, total: 1000, remaining: 742, tags: ['hot'] },
  { id: 'stellar-pokemon-002', genreId: 'pokemon', title: 'PSA10確定！極上の一枚オリパ', price: 10000, total: 120, remaining: 9, tags: ['limited'] },
  { id: 'stellar-pokemon-003', genreId: 'pokemon', title: 'はじめてのワンコインオリパ', price: 100, total: 3000, remaining: 2890, tags: ['new'] },
  { id: 'stellar-onepiece-001', genreId: 'onepiece', title: '大海原のパラレル大当たりオリパ', price: 1000, total: 500, remaining: 318, tags: ['hot'] },
  { id: 'stellar-onepiece-002', genreId: 'onepiece', title: 'リーダー確定コレクションオリパ', price: 3000, total: 200, remaining: 27, tags: [] },
  { id: 'stellar-yugioh-001', genreId: 'yugioh', title: '閃光のシークレットオリパ', price: 800, total: 800, remaining: 611, tags: ['new'] },
  { id: 'stellar-yugioh-002', genreId: 'yugioh', title: 'レリーフ大集合オリパ', price: 2000, total: 300, remaining: 0, tags: [], status: 'sold_out' },
  { id: 'stellar-duelmasters-001', genreId: 'duelmasters', title: '超次元ドリームオリパ', price: 500, total: 600, remaining: 455, tags: [] },
  { id: 'stellar-duelmasters-002', genreId: 'duelmasters', title: '殿堂カード狙いオリパ', price: 1500, total: 250, remaining: 44, tags: ['limited'] },
  { id: 'stellar-weiss-001', genreId: 'weiss', title: 'サイン入り狙い撃ちオリパ', price: 1200, total: 400, remaining: 389, tags: ['new'] },
  { id: 'stellar-weiss-002', genreId: 'weiss', title: 'SP・SSP限定オリパ', price: 5000, total: 100, remaining: 63, tags: ['hot'] },
  { id: 'stellar-pokemon-004', genreId: 'pokemon', title: 'ラストワン目前！残りわずかオリパ', price: 2000, total: 150, remaining: 4, tags: ['hot'] },
];

/**
 * Loads the demo data unless it was loaded before (recorded in app_meta). Safe when two server
 * instances start together: the claim on the app_meta row decides which one loads.
 * @example await loadDemoDataOnce(db, logger)
 */
export async function loadDemoDataOnce(db: Database, logger: Logger): Promise<boolean> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(appMeta)
      .values({ key: 'demo_data_loaded', value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: appMeta.key });
    if (claimed.length === 0) return false;
    await tx.insert(genres).values(DEMO_GENRES).onConflictDoNothing();
    await tx
      .insert(gachas)
      .values(
        DEMO_PACKS.map((pack, index) => ({
          id: pack.id,
          genreId: pack.genreId,
          title: pack.title,
          imagePath: `/demo/packs/pack-${String(index + 1).padStart(2, '0')}.svg`,
          pricePerDraw: pack.price,
          totalLots: pack.total,
          remainingLots: pack.remaining,
          status: pack.status ?? ('on_sale' as const),
          tags: pack.tags,
          sortOrder: index,
          saleStartsAt: new Date(Date.now() - (index + 1) * 86_400_000),
        })),
      )
      .onConflictDoNothing();
    await tx.insert(contentDocuments).values(legalAndEditorialPages()).onConflictDoNothing();
    logger.info({ genres: DEMO_GENRES.length, packs: DEMO_PACKS.length }, 'demo data loaded');
    return true;
  });
}
