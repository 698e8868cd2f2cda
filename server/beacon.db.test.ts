// The beacon mode's late settlement mail (decision 081): a draw settled after its reveal stopped waiting is told
// once, in the mailbox, with a link to its result; a draw settled in time and a second run write nothing more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { queryRows } from '#db/client';
import { closeBeaconRounds, drawLots, settleBeaconRounds } from '#modules/draw';
import { fetchBeacon } from '#modules/beacon';
import { receiptPublicKey } from '#modules/fairness';
import { startDrandStandin, type DrandStandin } from '#devtools/standins/drand';
import { mailLateSettlements } from './beacon';

const handle = useTestDatabase('beacon-late-mail');
let drand: DrandStandin;
beforeAll(async () => {
  drand = await startDrandStandin({ seed: 'beacon-late-mail', period: 1 });
});
afterAll(async () => {
  await drand.close();
});

const roundTime = (round: number) => (drand.info.genesis_time + (round - 1) * drand.info.period) * 1000;
const sleepUntil = async (at: number) => {
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.min(250, at - Date.now() + 5)));
};

describe('a late beacon settlement', () => {
  it(
    'is mailed once to the member whose draw waited past its reveal, with the link to its result',
    async () => {
      const db = handle.db;
      const gachaId = await createPublishedPack(db, {
        lots: 10,
        price: 10,
        drawOptions: [1],
        beacon: {
          source: {
            chainHash: drand.info.hash,
            scheme: drand.info.schemeID,
            publicKey: drand.info.public_key,
            genesisTime: drand.info.genesis_time,
            period: drand.info.period,
          },
          receiptKey: receiptPublicKey('1'.repeat(64)),
          closeMarginMs: 400,
        },
      });
      const member = await createMemberWithCoins(db, { paid: 1_000 });
      const outcome = await drawLots(db, {
        memberId: member,
        gachaId,
        count: 1,
        idempotencyKey: randomUUID(),
        decisionDays: 7,
      });
      if (!outcome.ok) throw new Error(outcome.code);
      const round = outcome.result.receipt!.round;
      // The relay is silent: the round passes, nothing settles, nobody is mailed.
      drand.silent(true);
      await sleepUntil(roundTime(round) + 50);
      await closeBeaconRounds(db);
      const beaconOf = async (_: unknown, r: number) => {
        const answer = await fetchBeacon({ baseUrl: drand.url, timeoutMs: 2_000 }, drand.info, r);
        return answer.ok ? answer.beacon : null;
      };
      expect(await settleBeaconRounds(db, beaconOf, { decisionDays: 7 })).toEqual([]);
      expect(await mailLateSettlements(db, 0)).toBe(0);
      // The relay comes back: the draw settles (late), and its member is told once.
      drand.silent(false);
      const [head] = await queryRows<{ settle: number }>(
        db,
        sql`select settle_round::int as settle from draw_beacon_heads where gacha_id = ${gachaId}`,
      );
      await sleepUntil(roundTime(head!.settle) + 50);
      expect((await settleBeaconRounds(db, beaconOf, { decisionDays: 7 })).map((s) => s.drawIds)).toEqual([
        [outcome.result.drawId],
      ]);
      expect(await mailLateSettlements(db, 0)).toBe(1);
      expect(await mailLateSettlements(db, 0)).toBe(0);
      const mails = await queryRows<{ category: string; subject: string; body: string }>(
        db,
        sql`select category, subject, body::text as body from mails where member_id = ${member}`,
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ category: 'draw_settled', subject: '抽選結果が確定しました' });
      expect(mails[0]!.body).toContain(`/gacha/pokemon/${gachaId}/result/${outcome.result.drawId}`);
    },
    scaledTimeout(60_000),
  );
});
