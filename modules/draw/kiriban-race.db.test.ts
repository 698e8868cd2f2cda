// A regression test for a race the HTTP storm found only now and then (CI, November 2026): a draw that
// took the serialised キリ番 path because its terms were read before the previous award (a stale
// kiriban_next) compared its POSITIONS with the next キリ番's SALE NUMBER, skipped the award, and sold
// lot number N without awarding it; every later draw then failed on the broken invariant. Here dense
// キリ番 (every 37th lot) and many draws at once hit that window every time on PostgreSQL; on PGlite (one
// connection) the draws run one after another and the test checks the same outcome. ゾロ目賞 (issue 34 item 2)
// are キリ番 on the ゾロ目 and meet the same stampede.
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
import { zoromeNumbers } from '#modules/gacha';

const IN_FLIGHT = 48;
const handle = useTestDatabase('kiriban-race', { poolSize: IN_FLIGHT });

/** Many members draw a pack with these キリ番 at once until it sells out; every number must be awarded once. */
async function kiribanStampede(lots: number, kiribanAt: number[]) {
  const db = handle.db;
  const onPostgres = handle.engine === 'postgres';
  const gachaId = await createPublishedPack(db, { lots, price: 1, kiribanAt, drawOptions: [1, 10] });
  const members = await Promise.all(Array.from({ length: 60 }, () => createMemberWithCoins(db, { paid: 100_000 })));
  const calls = Math.ceil(lots * 1.2);
  const failures = await stampede(db, { gachaId, members, calls, inFlight: onPostgres ? IN_FLIGHT : 1 });

  expect(failures.slice(0, 5), `${failures.length} draws failed`).toEqual([]);
  const awarded = await queryRows<{ kiriban_no: number }>(
    db,
    sql`select kiriban_no from prizes where gacha_id = ${gachaId} and kiriban_no is not null order by kiriban_no`,
  );
  expect(awarded.map((a) => a.kiriban_no)).toEqual(kiribanAt);
  // The published log replays the sale in order: each キリ番 went to the draw that sold that lot.
  const verification = verifyReveal((await getPackReveal(db, gachaId))!);
  expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
  expect(verification.stats?.kiribanReached).toBe(kiribanAt.length);
  expect(await checkInvariants(db)).toEqual([]);
}

describe('キリ番 under many draws at once', () => {
  it(
    'awards every キリ番 exactly once, to the draw that sold that lot, until the pack sells out',
    async () => {
      const lots = handle.engine === 'postgres' ? 1500 : 300;
      await kiribanStampede(
        lots,
        Array.from({ length: Math.floor(lots / 37) }, (_, i) => 1 + i * 37),
      );
    },
    scaledTimeout(300_000),
  );

  it(
    'awards every ゾロ目 (11, 22 … 999) exactly once: a ゾロ目賞 is a キリ番賞 on those sale numbers (issue 34 item 2)',
    async () => {
      const lots = handle.engine === 'postgres' ? 1000 : 300;
      const zorome = zoromeNumbers(lots);
      expect(zorome.slice(0, 10)).toEqual([11, 22, 33, 44, 55, 66, 77, 88, 99, 111]);
      expect(zorome.every((n) => n < lots)).toBe(true);
      await kiribanStampede(lots, zorome);
    },
    scaledTimeout(300_000),
  );
});
