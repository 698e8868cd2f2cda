// A regression test for a race the HTTP storm found only now and then (CI, November 2026): a draw that
// took the serialised キリ番 path because its terms were read before the previous award (a stale
// kiriban_next) compared its POSITIONS with the next キリ番's SALE NUMBER, skipped the award, and sold
// lot number N without awarding it; every later draw then failed on the broken invariant. Here dense
// キリ番 (every 37th lot) and many draws at once hit that window every time on PostgreSQL; on PGlite (one
// connection) the draws run one after another and the test checks the same outcome.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { queryRows } from '#db/client';
import { drawLots, getPackReveal } from '#modules/draw';
import { checkInvariants } from '#modules/wallet';
import { verifyReveal } from '#modules/fairness';

const IN_FLIGHT = 48;
const handle = useTestDatabase('kiriban-race', { poolSize: IN_FLIGHT });

describe('キリ番 under many draws at once', () => {
  it(
    'awards every キリ番 exactly once, to the draw that sold that lot, until the pack sells out',
    async () => {
      const db = handle.db;
      const onPostgres = handle.engine === 'postgres';
      const lots = onPostgres ? 1500 : 300;
      const kiribanAt = Array.from({ length: Math.floor(lots / 37) }, (_, i) => 1 + i * 37);
      const gachaId = await createPublishedPack(db, { lots, price: 1, kiribanAt, drawOptions: [1, 10] });
      const members = await Promise.all(Array.from({ length: 60 }, () => createMemberWithCoins(db, { paid: 100_000 })));
      const calls = Math.ceil(lots * 1.2);
      let next = 0;
      const failures: string[] = [];
      const worker = async () => {
        while (next < calls) {
          const n = next++;
          const outcome = await drawLots(db, {
            memberId: members[n % members.length]!,
            gachaId,
            count: n % 10 === 3 ? 10 : 1,
            idempotencyKey: randomUUID(),
            decisionDays: 14,
          }).catch((error: unknown) => ({ ok: false as const, code: String((error as Error).cause ?? error) }));
          if (!outcome.ok && !['SOLD_OUT', 'NOT_ENOUGH_LOTS'].includes(outcome.code)) failures.push(outcome.code);
        }
      };
      await Promise.all(Array.from({ length: onPostgres ? IN_FLIGHT : 1 }, worker));

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
    },
    scaledTimeout(300_000),
  );
});
