// The catalogue against a real database (PostgreSQL when it answers, else PGlite), with the demo data.
// The pure rules (headline tier, sort options) are in index.test.ts.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { genres } from '#db/schema';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES } from '#tests/fixtures';
import { loadDemoDataOnce, DEMO_PACKS } from '#db/demo/seed';
import { createLogger } from '#server/logger';
import {
  listGenres,
  listGachas,
  resolveGenre,
  getGacha,
  genreOfGacha,
  getGachaDetail,
  describeTiers,
  getRemaining,
  listPublicPackPaths,
  isLotTier,
} from './index';

const handle = useTestDatabase('catalogue');

beforeAll(async () => {
  await loadDemoDataOnce(handle.db, createLogger('silent'), TEST_RULES);
});

describe('headline prize', () => {
  it('leads each listed pack with its best regular tier, not the ラストワン賞 or キリ番賞, in the list query', async () => {
    const packs = await listGachas(handle.db);
    for (const pack of packs) {
      const detail = await getGachaDetail(handle.db, pack.id);
      const best = detail!.tiers.filter(isLotTier).sort((a, b) => a.rank - b.rank)[0]!;
      expect(pack.headline, pack.id).toEqual({
        label: best.label,
        cardName: best.cardName,
        cardImagePath: best.cardImagePath,
      });
    }
    // A pack with a ラストワン賞 still leads with its S賞.
    const withLastOne = packs.find((p) => p.id === 'stellar-pokemon-004')!;
    expect(withLastOne.headline).toMatchObject({
      label: 'S賞',
      cardName: '星詠みのドラゴン SAR',
      cardImagePath: '/demo/cards/card-01.svg',
    });
  });
  it('names tiers of public packs for the boards', async () => {
    const names = await describeTiers(handle.db, ['stellar-onepiece-001.S', 'no-such-tier']);
    expect(names.get('stellar-onepiece-001.S')).toMatchObject({
      gachaId: 'stellar-onepiece-001',
      label: 'S賞',
      cardName: '大海賊船長ガレオン SAR',
      packTitle: '大海原のパラレル大当たりオリパ',
    });
    expect(names.has('no-such-tier')).toBe(false);
  });
});

describe('catalogue', () => {
  it('publishes the demo PSA10 pack with two certified hits, each photo hashed from its file', async () => {
    const pack = (await getGachaDetail(handle.db, 'stellar-pokemon-002'))!;
    const certified = pack.tiers.filter((t) => t.certificate);
    expect(certified.map((t) => [t.id, t.certificate])).toEqual([
      ['stellar-pokemon-002.LAST', { company: 'PSA', number: 'DEMO-10000002' }],
      ['stellar-pokemon-002.S', { company: 'PSA', number: 'DEMO-10000001' }],
    ]);
    for (const tier of certified) {
      const bytes = await readFile(path.join('public', tier.photo!.originalPath));
      expect(tier.photo!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
  it('loads the demo data once only', async () => {
    expect(await loadDemoDataOnce(handle.db, createLogger('silent'), TEST_RULES)).toBe(false);
    expect(await listGachas(handle.db)).toHaveLength(DEMO_PACKS.length);
  });
  it('lists the demo packs with the counts of their lots', async () => {
    for (const pack of await listGachas(handle.db)) {
      expect(pack.remainingLots, pack.id).toBe((await getRemaining(handle.db, pack.id)).remaining);
    }
    expect((await getGacha(handle.db, 'stellar-pokemon-004'))?.remainingLots).toBe(4);
  });
  it('lists genres in their order', async () => {
    expect((await listGenres(handle.db)).map((g) => g.id)).toEqual([
      'pokemon',
      'onepiece',
      'yugioh',
      'duelmasters',
      'weiss',
    ]);
  });
  it('resolves ids and aliases in any case', async () => {
    expect(await resolveGenre(handle.db, 'POKEMON')).toBe('pokemon');
    expect(await resolveGenre(handle.db, 'one-piece')).toBe('onepiece');
    expect(await resolveGenre(handle.db, 'nothing')).toBeNull();
    expect(await resolveGenre(handle.db, "x' or '1'='1")).toBeNull();
  });
  it('sorts by price and puts sold-out packs last', async () => {
    const cheapFirst = await listGachas(handle.db, { sort: 'price_asc' });
    const onSale = cheapFirst.filter((p) => p.status === 'on_sale').map((p) => p.pricePerDraw);
    expect(onSale).toEqual([...onSale].sort((a, b) => a - b));
    expect(cheapFirst.at(-1)?.status).toBe('sold_out');
    const pokemon = await listGachas(handle.db, { genreId: 'pokemon' });
    expect(pokemon.length).toBeGreaterThan(0);
    expect(pokemon.every((p) => p.genreId === 'pokemon')).toBe(true);
  });
  it('finds a pack and its genre', async () => {
    expect((await getGacha(handle.db, 'stellar-onepiece-001'))?.title).toBe('大海原のパラレル大当たりオリパ');
    expect(await genreOfGacha(handle.db, 'stellar-onepiece-001')).toBe('onepiece');
    expect(await getGacha(handle.db, 'missing')).toBeNull();
  });
});

describe('catalogue ids', () => {
  it('answers null for ids that could never exist, without asking the database', async () => {
    expect(await getGacha(handle.db, '\u0000')).toBeNull();
    expect(await getGacha(handle.db, 'a'.repeat(101))).toBeNull();
    expect(await resolveGenre(handle.db, 'ポケモン')).toBeNull();
  });
});

describe('a hidden genre', () => {
  it('leaves its packs out of the lists (their pages answer 404), and shows them again when shown', async () => {
    const db = handle.db;
    const packOfOnePiece = (await listGachas(db)).find((p) => p.genreId === 'onepiece')!;
    expect(packOfOnePiece).toBeDefined();
    await db.update(genres).set({ visible: false }).where(eq(genres.id, 'onepiece'));
    try {
      expect((await listGachas(db)).some((p) => p.genreId === 'onepiece')).toBe(false);
      expect(await listGachas(db, { genreId: 'onepiece' })).toEqual([]);
      expect(await resolveGenre(db, 'onepiece')).toBeNull();
      expect((await listPublicPackPaths(db)).some((p) => p.genreId === 'onepiece')).toBe(false);
    } finally {
      await db.update(genres).set({ visible: true }).where(eq(genres.id, 'onepiece'));
    }
    expect((await listGachas(db)).some((p) => p.id === packOfOnePiece.id)).toBe(true);
  });
});
