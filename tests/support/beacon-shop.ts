// A beacon pack on a test database with the drand stand-in's real beacons (decision 081), for the draw module's
// tests: the stand-in started and stopped with the file, a pack committed to its chain and a known receipt key,
// a draw, and the close and the settlement as the settler makes them, waiting for each round's real time.
import { afterAll, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { closeBeaconRounds, drawLots, settleBeaconRounds, type BeaconOfRound } from '#modules/draw';
import { fetchBeacon } from '#modules/beacon';
import { receiptPublicKey, type BeaconSourceTerms } from '#modules/fairness';
import { startDrandStandin, type DrandStandin } from '#devtools/standins/drand';
import { createPublishedPack } from './fixtures';

/** RFC 8032 §7.1, test 1: the receipt key every beacon test pack commits to. */
export const TEST_RECEIPT_SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';

/** Waits until the wall clock reaches `at` (Unix ms), in steps of at most 250 ms. */
export async function sleepUntil(at: number): Promise<void> {
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.min(250, at - Date.now() + 5)));
}

export interface BeaconTestShop {
  /** The stand-in (started in the file's beforeAll). */
  readonly drand: DrandStandin;
  /** The chain as a pack commits to it. */
  source(): BeaconSourceTerms;
  roundTime(round: number): number;
  /** Fetched from the stand-in and verified against the pack's committed chain, as the server does. */
  verifiedBeacons: BeaconOfRound;
  /** A published beacon pack of `lots` lots at 10 coins, drawable by 1, 2, 3 and 10. */
  beaconPack(lots: number, options?: { lastOne?: boolean; kiribanAt?: number[] }): Promise<string>;
  /** An accepted draw (throws when refused). */
  draw(memberId: string, gachaId: string, count: number): ReturnType<typeof acceptedDraw>;
  /** Closes every round of the pack with receipts not yet in a head, once its close time has come. */
  closeAll(gachaId: string): Promise<void>;
  /** Closes and settles until every receipt of the pack is settled. */
  settleAll(gachaId: string): Promise<void>;
}

async function acceptedDraw(db: Database, memberId: string, gachaId: string, count: number) {
  const outcome = await drawLots(db, { memberId, gachaId, count, idempotencyKey: randomUUID(), decisionDays: 7 });
  if (!outcome.ok) throw new Error(`draw refused: ${outcome.code}`);
  return outcome.result;
}

/**
 * Declares the stand-in's hooks (call it after useTestDatabase) and answers the kit. Rounds are a second apart;
 * a round closes `closeMarginMs` before its time.
 * @example const handle = useTestDatabase('beacon'); const shop = useBeaconTestShop(handle, 'beacon', 700)
 */
export function useBeaconTestShop(
  handle: { readonly db: Database },
  seed: string,
  closeMarginMs: number,
): BeaconTestShop {
  let drand: DrandStandin | undefined;
  beforeAll(async () => {
    drand = await startDrandStandin({ seed, period: 1 });
  });
  afterAll(async () => {
    await drand?.close();
  });
  const standin = () => {
    if (!drand) throw new Error('useBeaconTestShop: the stand-in starts in beforeAll; use it inside hooks and tests');
    return drand;
  };
  const roundTime = (round: number) => (standin().info.genesis_time + (round - 1) * standin().info.period) * 1000;
  const verifiedBeacons: BeaconOfRound = async (terms, round) => {
    const info = standin().info;
    if (terms.chainHash !== info.hash)
      throw new Error(`a pack of another chain (${terms.chainHash}) asked for a beacon`);
    const answer = await fetchBeacon({ baseUrl: standin().url, timeoutMs: 10_000 }, info, round);
    return answer.ok ? answer.beacon : null;
  };
  const source = (): BeaconSourceTerms => {
    const info = standin().info;
    return {
      chainHash: info.hash,
      scheme: info.schemeID,
      publicKey: info.public_key,
      genesisTime: info.genesis_time,
      period: info.period,
    };
  };
  const closeAll = async (gachaId: string) => {
    const [open] = await queryRows<{ round: number | null }>(
      handle.db,
      sql`select max(round)::int as round from draw_receipts where gacha_id = ${gachaId} and receipt_hash is null`,
    );
    if (!open?.round) return;
    await sleepUntil(roundTime(open.round) - closeMarginMs + 20);
    await closeBeaconRounds(handle.db);
  };
  return {
    get drand() {
      return standin();
    },
    source,
    roundTime,
    verifiedBeacons,
    beaconPack: (lots, options = {}) =>
      createPublishedPack(handle.db, {
        lots,
        price: 10,
        drawOptions: [1, 2, 3, 10],
        ...options,
        beacon: { source: source(), receiptKey: receiptPublicKey(TEST_RECEIPT_SECRET), closeMarginMs },
      }),
    draw: (memberId, gachaId, count) => acceptedDraw(handle.db, memberId, gachaId, count),
    closeAll,
    settleAll: async (gachaId) => {
      for (let turn = 0; turn < 20; turn++) {
        const [open] = await queryRows<{ n: number }>(
          handle.db,
          sql`select count(*)::int as n from draw_receipts where gacha_id = ${gachaId} and settled_at is null`,
        );
        if (open!.n === 0) return;
        await closeAll(gachaId);
        const [head] = await queryRows<{ settle: number | null }>(
          handle.db,
          sql`select max(settle_round)::int as settle from draw_beacon_heads where gacha_id = ${gachaId} and settled_at is null`,
        );
        if (head?.settle) {
          await sleepUntil(roundTime(head.settle) + 20);
          await settleBeaconRounds(handle.db, verifiedBeacons, { decisionDays: 7 });
        }
      }
      throw new Error('the pack did not settle');
    },
  };
}
