// Many members drawing one pack at once until it sells out (the race tests of キリ番賞, 個人キリ番賞, ピタリ賞 and
// 天井賞): `inFlight` draws at a time on PostgreSQL, one after another on PGlite (one connection); every 10th call
// draws 10 lots. A draw may only be refused because the pack ran out.
import { randomUUID } from 'node:crypto';
import type { Database } from '#db/client';
import { drawLots } from '#modules/draw';

/**
 * Sends `calls` draws of `gachaId`, member after member, `inFlight` at a time; answers the refusals other than
 * SOLD_OUT and NOT_ENOUGH_LOTS (a test expects none).
 * @example expect(await stampede(db, { gachaId, members, calls: 1440, inFlight: 48 })).toEqual([])
 */
export async function stampede(
  db: Database,
  input: { gachaId: string; members: readonly string[]; calls: number; inFlight: number },
): Promise<string[]> {
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < input.calls) {
      const n = next++;
      const outcome = await drawLots(db, {
        memberId: input.members[n % input.members.length]!,
        gachaId: input.gachaId,
        count: n % 10 === 3 ? 10 : 1,
        idempotencyKey: randomUUID(),
        decisionDays: 14,
      }).catch((error: unknown) => ({ ok: false as const, code: String((error as Error).cause ?? error) }));
      if (!outcome.ok && !['SOLD_OUT', 'NOT_ENOUGH_LOTS'].includes(outcome.code)) failures.push(outcome.code);
    }
  };
  await Promise.all(Array.from({ length: input.inFlight }, worker));
  return failures;
}
