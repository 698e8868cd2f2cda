// 天井賞 under a stampede (issue 34 item 1, decision 089): many members draw one pack at once until it sells out,
// each member's draws one at a time behind their wallet lock. Every member's 天井賞 are exactly what the walk over
// their own lots gives (a hit resets the count, N misses in a row win one), numbered 1 … k; the published log
// recounts each draw's (check 10); the cards of those not given are freed at the sell-out; the invariants hold.
// On PostgreSQL 48 draws are in flight; on PGlite (one connection) they run one after another.
import { describe, it, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { stampede } from '#tests/stampede';
import { queryRows } from '#db/client';
import { getPackReveal } from '#modules/draw';
import { checkInvariants } from '#modules/wallet';
import { ceilingWalk, verifyReveal } from '#modules/fairness';

const IN_FLIGHT = 48;
const handle = useTestDatabase('ceiling-race', { poolSize: IN_FLIGHT });

describe('天井賞 under many draws at once', () => {
  it(
    "gives each member exactly the 天井賞 their own lots earn, to the draws the log names, and frees the rest's cards",
    async () => {
      const db = handle.db;
      const onPostgres = handle.engine === 'postgres';
      const lots = onPostgres ? 1200 : 300;
      const after = 7;
      // Hits are S and A (3 lots of the fixture's tiers); every B lot counts toward the 天井.
      const gachaId = await createPublishedPack(db, {
        lots,
        price: 1,
        drawOptions: [1, 10],
        lastOne: true,
        ceiling: { after, of: ['S', 'A'] },
      });
      const members = await Promise.all(Array.from({ length: 40 }, () => createMemberWithCoins(db, { paid: 100_000 })));
      const failures = await stampede(db, {
        gachaId,
        members,
        calls: Math.ceil(lots * 1.2),
        inFlight: onPostgres ? IN_FLIGHT : 1,
      });
      expect(failures.slice(0, 5), `${failures.length} draws failed`).toEqual([]);

      // Each member's lots in the order they drew them (their draws are serialised; a draw's lots by position).
      const rows = await queryRows<{ member_id: string; draw_id: string; tier: string; position: number }>(
        db,
        // A draw's moment is its claim (its prizes' earliest created_at, taken after the wallet lock).
        sql`select member_id, draw_id, tier, position from (
              select p.member_id, p.draw_id::text as draw_id, p.tier_id as tier, p.position,
                     min(p.created_at) over (partition by p.draw_id) as claimed
                from prizes p where p.gacha_id = ${gachaId} and p.position is not null) x
             order by member_id, claimed, draw_id, position`,
      );
      expect(rows.length).toBe(lots);
      const hits = [`${gachaId}.S`, `${gachaId}.A`];
      const expected = new Map<string, { won: number; streak: number }>();
      let previous = '';
      let tiersOfDraw: string[] = [];
      const flush = (memberId: string) => {
        if (tiersOfDraw.length === 0) return;
        const before = expected.get(memberId) ?? { won: 0, streak: 0 };
        const walk = ceilingWalk(before.streak, tiersOfDraw, after, hits);
        expected.set(memberId, { won: before.won + walk.won, streak: walk.streak });
        tiersOfDraw = [];
      };
      let member = '';
      for (const row of rows) {
        if (row.draw_id !== previous) flush(member);
        previous = row.draw_id;
        member = row.member_id;
        tiersOfDraw.push(row.tier);
      }
      flush(member);

      const given = await queryRows<{ member_id: string; numbers: number[]; ceilings: number; streak: number }>(
        db,
        sql`select m.member_id, m.ceilings, m.ceiling_streak as streak,
                   coalesce((select array_agg(p.ceiling_no order by p.ceiling_no) from prizes p
                              where p.gacha_id = m.gacha_id and p.member_id = m.member_id and p.ceiling_no is not null),
                            '{}') as numbers
              from gacha_member_draws m where m.gacha_id = ${gachaId}`,
      );
      expect(given.length).toBe(expected.size);
      let total = 0;
      for (const g of given) {
        const want = expected.get(g.member_id)!;
        expect({ won: g.numbers.length, streak: g.streak }, g.member_id).toEqual(want);
        expect(g.numbers.map(Number)).toEqual(Array.from({ length: want.won }, (_, i) => i + 1));
        expect(g.ceilings).toBe(want.won);
        total += want.won;
      }
      expect(total).toBeGreaterThan(0);

      // The log recounts every draw's 天井賞 (check 10), and the cards not given are no longer promised.
      const verification = verifyReveal((await getPackReveal(db, gachaId))!);
      expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
      expect(verification.stats?.ceilingAwarded).toBe(total);
      const [released] = await queryRows<{ n: number }>(
        db,
        sql`select coalesce(sum(-m.reserved_delta), 0)::int as n from stock_movements m
              join gacha_tiers t on t.stock_card_id = m.stock_card_id
             where t.id = ${`${gachaId}.CE`} and m.kind = 'released' and m.gacha_id = ${gachaId}`,
      );
      expect(released!.n).toBe(Math.floor(lots / after) - total);
      expect(await checkInvariants(db)).toEqual([]);
    },
    scaledTimeout(300_000),
  );
});
