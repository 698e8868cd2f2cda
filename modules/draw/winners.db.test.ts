// The winners feed and the member's draw history against a real database (decision 036): top tiers
// only, once each, hidden genres and drafts never shown, 匿名 unless the member chose the nickname,
// nothing private in an entry; the history bound to its member, its filters, pages and proofs.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import {
  createMember,
  createMemberWithCoins,
  createPublishedPack,
  HIDDEN_TEST_GENRE,
  TEST_RULES,
} from '#tests/fixtures';
import { drawLots, listDrawHistory, listWins, recordRecentWins, recordWins } from './index';
import { gachaTiers, gachas, prizes, users } from '#db/schema';
import { setWinnersFeedNamed, winnersFeedNames } from '#modules/identity';
import { createPack } from '#modules/gacha';
import { countStatements } from '#tests/sql-count';

const handle = useTestDatabase('winners');

/** S賞 (rainbow) is top; A賞 (gold, 5 × price) is under this threshold; ラストワン賞 is top. */
const HIGHLIGHT = 5_000;
const SINCE = () => new Date(Date.now() - 10 * 60_000);

async function draw(memberId: string, gachaId: string, count: number) {
  const outcome = await drawLots(handle.db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
  });
  if (!outcome.ok) throw new Error(`draw refused: ${outcome.code}`);
  return outcome.result;
}

describe('the winners feed', () => {
  it('records top-tier prizes once each, after the draw, and lists them newest first', async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200, lastOne: true });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    for (let i = 0; i < 4; i++) await draw(member, pack, 1); // the whole pack: S, A ×2, B and the ラストワン賞

    const recorded = await recordWins(db, pack, { highlightCoins: HIGHLIGHT, since: SINCE() });
    expect(recorded).toHaveLength(2);
    expect(await recordWins(db, pack, { highlightCoins: HIGHLIGHT, since: SINCE() })).toEqual([]);
    expect(await recordRecentWins(db, { highlightCoins: HIGHLIGHT, windowSeconds: 600, graceSeconds: 0 })).toBe(0);

    const { items } = await listWins(db, { gachaId: pack, limit: 10 });
    expect(items.map((e) => e.tierLabel).sort()).toEqual(['S賞', 'ラストワン賞']);
    expect(items[0]!.tierLabel).toBe('ラストワン賞'); // the final lot's prize came last
    for (const entry of items) {
      expect(entry).toMatchObject({ gachaId: pack, genreId: 'pokemon', name: '匿名' });
      expect(entry.imagePath).toMatch(/^\/demo\/cards\//);
      expect(Object.keys(entry).sort()).toEqual(
        [
          'cardName',
          'effect',
          'gachaId',
          'gachaTitle',
          'genreId',
          'id',
          'imagePath',
          'name',
          'sponsored',
          'tierLabel',
          'wonAt',
        ].sort(),
      );
      expect(JSON.stringify(entry)).not.toContain(member);
      expect(JSON.stringify(entry)).not.toContain('@');
    }
    // Only ids the caller asks for (the live stream's new rows).
    expect((await listWins(db, { gachaId: pack, limit: 10, ids: [recorded[0]!] })).items).toHaveLength(1);
  });

  it('leaves the last minute to the live path: the catch-up records only older draws, so a new win is announced', async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200, lastOne: true });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    await draw(member, pack, 4);
    // The draw is seconds old: inside a grace of a minute it stays the live recount's to record and announce.
    expect(await recordRecentWins(db, { highlightCoins: HIGHLIGHT, windowSeconds: 900, graceSeconds: 60 })).toBe(0);
    expect((await listWins(db, { gachaId: pack, limit: 10 })).items).toEqual([]);
    // Once past the grace (here: none), the catch-up records what no recount did.
    expect(await recordRecentWins(db, { highlightCoins: HIGHLIGHT, windowSeconds: 900, graceSeconds: 0 })).toBe(2);
    expect((await listWins(db, { gachaId: pack, limit: 10 })).items.map((e) => e.tierLabel).sort()).toEqual([
      'S賞',
      'ラストワン賞',
    ]);
  });

  it('counts a prize worth PRIZE_HIGHLIGHT_COINS as top, whatever its effect', async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200 });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    await draw(member, pack, 4);
    // At 1,000 coins the A賞 (gold, 1,000) counts too: S + A + A.
    expect(await recordWins(db, pack, { highlightCoins: 1_000, since: SINCE() })).toHaveLength(3);
  });

  it("counts the pack's best tier as top by its rank, even with a plain effect and a low value", async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200 });
    await db
      .update(gachaTiers)
      .set({ effect: 'gold' })
      .where(and(eq(gachaTiers.gachaId, pack), eq(gachaTiers.rank, 1)));
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    await draw(member, pack, 4); // S (rank 1, gold now), A ×2, B
    const rules = { highlightCoins: 1_000_000, since: SINCE() };
    expect(await recordWins(db, pack, rules)).toHaveLength(1);
    expect((await listWins(db, { gachaId: pack, limit: 10 })).items.map((e) => [e.tierLabel, e.effect])).toEqual([
      ['S賞', 'gold'],
    ]);
    const history = await listDrawHistory(
      db,
      member,
      { period: 'all', hits: 'all' },
      { limit: 5, highlightCoins: 1_000_000 },
    );
    expect(history.items[0]!.tiers.map((t) => [t.tierLabel, t.top])).toEqual([
      ['S賞', true],
      ['A賞', false],
      ['B賞', false],
    ]);
  });

  it('shows the nickname only to members who chose it, never an email, 匿名 for deleted members', async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200 });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    await db.update(users).set({ name: 'ピカ\u202e太郎' }).where(eq(users.id, member));
    await draw(member, pack, 4);
    await recordWins(db, pack, { highlightCoins: HIGHLIGHT, since: SINCE() });
    expect((await listWins(db, { gachaId: pack, limit: 5 })).items[0]!.name).toBe('匿名');

    await setWinnersFeedNamed(db, member, true);
    expect((await listWins(db, { gachaId: pack, limit: 5 })).items[0]!.name).toBe('ピカ太郎');

    const emailed = await createMember(db, { name: 'someone@example.jp' });
    await setWinnersFeedNamed(db, emailed, true);
    expect((await winnersFeedNames(db, [emailed])).get(emailed)).toBe(`会員***${emailed.slice(-3)}`);

    await db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member));
    expect((await listWins(db, { gachaId: pack, limit: 5 })).items[0]!.name).toBe('匿名');
  });

  it("never lists a hidden genre's pack or a draft", async () => {
    const db = handle.db;
    const hidden = await createPublishedPack(db, {
      drawOptions: [1, 2, 4, 10],
      lots: 4,
      price: 200,
      genreId: HIDDEN_TEST_GENRE,
    });
    const shown = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200 });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    await draw(member, hidden, 4);
    await draw(member, shown, 4);
    expect(await recordWins(db, hidden, { highlightCoins: HIGHLIGHT, since: SINCE() })).toHaveLength(1);
    await recordWins(db, shown, { highlightCoins: HIGHLIGHT, since: SINCE() });
    expect((await listWins(db, { gachaId: hidden, limit: 10 })).items).toEqual([]);
    const shop = (await listWins(db, { limit: 50 })).items;
    expect(shop.some((e) => e.gachaId === shown)).toBe(true);
    expect(shop.some((e) => e.gachaId === hidden)).toBe(false);

    // A pack that is not public yet records nothing (and so shows nothing).
    const draft = `t-${randomUUID().slice(0, 8)}`;
    await createPack(db, {
      id: draft,
      genreId: 'pokemon',
      title: '下書き',
      imagePath: '/demo/packs/pack-01.svg',
      pricePerDraw: 100,
      drawOptions: [1],
      tiers: [
        {
          key: 'S',
          label: 'S賞',
          rank: 1,
          effect: 'rainbow',
          cardName: 'x',
          cardImagePath: '/demo/cards/card-01.svg',
          quantity: 1,
          conversionValue: 1,
        },
      ],
    });
    expect(await recordWins(db, draft, { highlightCoins: HIGHLIGHT, since: SINCE() })).toEqual([]);
    expect((await listWins(db, { gachaId: draft, limit: 10 })).items).toEqual([]);
  });

  it('pages with a cursor', async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 4, price: 200, lastOne: true });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    await draw(member, pack, 4);
    await recordWins(db, pack, { highlightCoins: HIGHLIGHT, since: SINCE() });
    const first = await listWins(db, { gachaId: pack, limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.next).not.toBeNull();
    const second = await listWins(db, { gachaId: pack, limit: 1, before: first.next! });
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.next).toBeNull();
  });
});

describe("the member's draw history", () => {
  it("lists only the member's own draws, filtered, paged, with proofs once the pack is over", async () => {
    const db = handle.db;
    const sellOut = await createPublishedPack(db, {
      drawOptions: [1, 2, 4, 10],
      lots: 4,
      price: 200,
      lastOne: true,
      kiribanAt: [2],
    });
    const onSale = await createPublishedPack(db, { drawOptions: [1, 2, 4, 10], lots: 50, price: 100 });
    const [me, other] = await Promise.all([1, 2].map(() => createMemberWithCoins(db, { paid: 100_000 })));
    const mine = [await draw(me!, sellOut, 1), await draw(me!, onSale, 10)];
    await draw(other!, onSale, 1);
    await draw(other!, sellOut, 2);
    mine.push(await draw(me!, sellOut, 1)); // the final lot: ラストワン賞
    await recordWins(db, sellOut, { highlightCoins: HIGHLIGHT, since: SINCE() });
    const rules = { limit: 20, highlightCoins: HIGHLIGHT };
    const all = { period: 'all', hits: 'all' } as const;

    const page = await listDrawHistory(db, me!, all, rules);
    expect(page.items.map((d) => d.drawId)).toEqual(mine.map((d) => d.drawId).reverse());
    const otherIds = (await listDrawHistory(db, other!, all, rules)).items.map((d) => d.drawId);
    expect(otherIds.some((id) => mine.some((d) => d.drawId === id))).toBe(false);

    // The pack filter, and a pack id of another member's draws only.
    expect((await listDrawHistory(db, me!, { ...all, gachaId: onSale }, rules)).items).toHaveLength(1);
    // ラストワン賞 and キリ番賞 (lot 2 went to the other member).
    const lastOne = await listDrawHistory(db, me!, { ...all, hits: 'lastone' }, rules);
    expect(lastOne.items.map((d) => d.drawId)).toEqual([mine[2]!.drawId]);
    expect(lastOne.items[0]!.tiers[0]!.tierLabel).toBe('ラストワン賞');
    expect((await listDrawHistory(db, me!, { ...all, hits: 'kiriban' }, rules)).items).toEqual([]);
    expect((await listDrawHistory(db, other!, { ...all, hits: 'kiriban' }, rules)).items[0]!.kiriban).toEqual([2]);
    // Best hits: draws with a top-tier prize recorded in the feed.
    const top = await listDrawHistory(db, me!, { ...all, hits: 'top' }, rules);
    expect(top.items.every((d) => d.tiers.some((t) => t.top))).toBe(true);
    expect(top.items.map((d) => d.drawId)).toContain(mine[2]!.drawId);
    // The period counts back from now.
    const later = new Date(Date.now() + 8 * 86_400_000);
    expect((await listDrawHistory(db, me!, { ...all, period: '7d' }, { ...rules, now: later })).items).toEqual([]);
    expect((await listDrawHistory(db, me!, { ...all, period: '30d' }, { ...rules, now: later })).items).toHaveLength(3);

    // The pack filter's list: the member's own packs, most recent first, whatever the filter shows, with
    // their titles read once with the rows' (six statements in all on PostgreSQL, seven before).
    const titles = await db.select({ id: gachas.id, title: gachas.title }).from(gachas);
    const titleOf = (id: string) => titles.find((t) => t.id === id)!.title;
    const expected = [sellOut, onSale].map((gachaId) => ({ gachaId, gachaTitle: titleOf(gachaId) }));
    const sql = countStatements();
    const withPacks = await listDrawHistory(db, me!, all, { ...rules, withPacks: true });
    sql.restore();
    expect(withPacks.packs).toEqual(expected);
    expect(withPacks.items).toEqual(page.items);
    if (handle.engine === 'postgres') expect(sql.count).toBe(6);
    const noRows = await listDrawHistory(db, me!, { ...all, period: '7d' }, { ...rules, now: later, withPacks: true });
    expect(noRows.items).toEqual([]);
    expect(noRows.packs).toEqual(expected);
    // Only the member's own: a member who has not drawn has no packs to filter by.
    const newcomer = await createMemberWithCoins(db, { paid: 100 });
    expect(await listDrawHistory(db, newcomer, all, { ...rules, withPacks: true })).toEqual({
      items: [],
      next: null,
      packs: [],
    });
    expect(page.packs).toBeUndefined();

    // Proofs: the finished pack's seed, its commitment and the lots each draw took; none while on sale.
    const [pack] = await db.select({ commitment: gachas.commitment }).from(gachas).where(eq(gachas.id, sellOut));
    for (const item of page.items) {
      if (item.gachaId === onSale) {
        expect(item.proof).toBeNull();
        continue;
      }
      const lots = await db.select({ position: prizes.position }).from(prizes).where(eq(prizes.drawId, item.drawId));
      expect(item.proof).toMatchObject({ commitment: pack!.commitment });
      expect(item.proof!.seed).toMatch(/^[0-9a-f]{64}$/);
      expect(item.proof!.positions).toEqual(
        lots
          .map((l) => l.position)
          .filter((p): p is number => p !== null)
          .sort((a, b) => a - b),
      );
    }

    // Pages of one.
    const first = await listDrawHistory(db, me!, all, { ...rules, limit: 1 });
    const second = await listDrawHistory(db, me!, all, { ...rules, limit: 1, before: first.next! });
    expect(second.items[0]!.drawId).toBe(mine[1]!.drawId);
  });
});
