// 個人キリ番賞 and ピタリ賞 under a stampede (issue 34 item 2, decision 088): many members draw one pack at once
// until it sells out. Every member's own numbers are won once each, exactly by the draw that took their Nth lot;
// each ピタリ賞 once, by the draw that took its tier's last lot; the published log recounts both (checks 8 and
// 9), and the shop's invariants hold. On PostgreSQL 48 draws are in flight; on PGlite (one connection) they run
// one after another and the test checks the same outcome.
import { describe, it, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { stampede } from '#tests/stampede';
import { queryRows } from '#db/client';
import { getPackReveal } from '#modules/draw';
import { checkInvariants } from '#modules/wallet';
import { verifyReveal } from '#modules/fairness';

const IN_FLIGHT = 48;
const handle = useTestDatabase('extras-race', { poolSize: IN_FLIGHT });

describe('個人キリ番賞 and ピタリ賞 under many draws at once', () => {
  it(
    'gives each member their own numbers once and each ピタリ賞 once, to the draw the log names',
    async () => {
      const db = handle.db;
      const onPostgres = handle.engine === 'postgres';
      const lots = onPostgres ? 1200 : 300;
      const personal = [3, 10, 25];
      const gachaId = await createPublishedPack(db, {
        lots,
        price: 1,
        drawOptions: [1, 10],
        lastOne: true,
        personalKiribanAt: personal,
        pitariOf: ['S', 'A', 'B'],
      });
      const members = await Promise.all(Array.from({ length: 40 }, () => createMemberWithCoins(db, { paid: 100_000 })));
      const calls = Math.ceil(lots * 1.2);
      const failures = await stampede(db, { gachaId, members, calls, inFlight: onPostgres ? IN_FLIGHT : 1 });
      expect(failures.slice(0, 5), `${failures.length} draws failed`).toEqual([]);

      // Each member's numbers: exactly those at or below their lots, once each.
      const drawn = await queryRows<{ member_id: string; lots: number }>(
        db,
        sql`select member_id, count(*)::int as lots from gacha_lots where gacha_id = ${gachaId} group by member_id`,
      );
      expect(drawn.reduce((sum, m) => sum + m.lots, 0)).toBe(lots);
      const won = await queryRows<{ member_id: string; numbers: number[] }>(
        db,
        sql`select member_id, array_agg(personal_kiriban_no order by personal_kiriban_no) as numbers from prizes
             where gacha_id = ${gachaId} and personal_kiriban_no is not null group by member_id`,
      );
      const wonBy = new Map(won.map((w) => [w.member_id, w.numbers.map(Number)]));
      for (const member of drawn)
        expect(wonBy.get(member.member_id) ?? [], member.member_id).toEqual(personal.filter((n) => n <= member.lots));
      // Each ピタリ賞 once: to a draw that holds a lot of its tier (the log's check 9 says it was the last).
      const pitari = await queryRows<{ pitari_of: string; holds: boolean }>(
        db,
        sql`select p.pitari_of, exists (select 1 from gacha_lots l where l.gacha_id = p.gacha_id and l.draw_id = p.draw_id
                                           and l.tier_id = p.pitari_of) as holds
              from prizes p where p.gacha_id = ${gachaId} and p.pitari_of is not null order by p.pitari_of`,
      );
      expect(pitari.map((p) => [p.pitari_of.split('.').at(-1), p.holds])).toEqual([
        ['A', true],
        ['B', true],
        ['S', true],
      ]);
      const verification = verifyReveal((await getPackReveal(db, gachaId))!);
      expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
      expect(verification.stats?.pitariReached).toBe(3);
      expect(verification.stats?.personalKiribanAwarded).toBe(won.reduce((sum, w) => sum + w.numbers.length, 0));
      expect(await checkInvariants(db)).toEqual([]);
    },
    scaledTimeout(300_000),
  );
});
