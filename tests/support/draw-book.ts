// What a draw storm left in the database, read back to check it: each request's draws row, the coin book,
// a pack's lots and prizes. Shared by the storm tier (two instances on one database) and the topology tier
// (a storm through haproxy while parts fail).
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { totalCredited } from './members';

/** Refusals that stand as a draw's answer when a pack runs out. */
export const SELL_OUT_REFUSALS = new Set(['SOLD_OUT', 'NOT_ENOUGH_LOTS']);

export interface DrawRow {
  id: string;
  memberId: string;
  status: string;
  errorCode: string | null;
  count: number;
  cost: number;
  lastOne: boolean;
}

const one = async <T>(db: Database, query: ReturnType<typeof sql>): Promise<T> => (await queryRows<T>(db, query))[0]!;

/**
 * The draws table's row for each (member, key), keyed `${memberId} ${key}`. The API may store the client's
 * key with a prefix of its own (`api:<key>`), so both spellings are looked up and mapped back to the
 * client's key.
 */
export async function drawRows(db: Database, keys: string[]): Promise<Map<string, DrawRow>> {
  const spellings = keys.flatMap((k) => [k, `api:${k}`]);
  const found = await queryRows<{
    id: string;
    member_id: string;
    idem_key: string;
    status: string;
    error_code: string | null;
    count: number;
    cost: number;
    last_one: boolean;
  }>(
    db,
    sql`select id, member_id, idem_key, status, error_code, count, cost, last_one from draws where idem_key = any(${`{${spellings.map((k) => `"${k}"`).join(',')}}`}::text[])`,
  );
  return new Map(
    found.map((r) => [
      `${r.member_id} ${r.idem_key.replace(/^api:/, '')}`,
      {
        id: r.id,
        memberId: r.member_id,
        status: r.status,
        errorCode: r.error_code,
        count: r.count,
        cost: r.cost,
        lastOne: r.last_one,
      },
    ]),
  );
}

/** Coins: every credit is either still in a wallet or was paid for a draw. */
export async function coinBook(db: Database) {
  const credited = await totalCredited(db);
  const { wallets } = await one<{ wallets: string }>(
    db,
    sql`select coalesce(sum(paid + free), 0)::bigint as wallets from wallets`,
  );
  const { debited } = await one<{ debited: string }>(
    db,
    sql`select coalesce(-sum(amount), 0)::bigint as debited from coin_ledger where amount < 0`,
  );
  const { drawDebits } = await one<{ drawDebits: string }>(
    db,
    sql`select coalesce(-sum(amount), 0)::bigint as "drawDebits" from coin_ledger where reason = 'draw'`,
  );
  const { drawCosts } = await one<{ drawCosts: string }>(
    db,
    sql`select coalesce(sum(cost), 0)::bigint as "drawCosts" from draws where status = 'completed'`,
  );
  return {
    credited,
    wallets: Number(wallets),
    debited: Number(debited),
    drawDebits: Number(drawDebits),
    drawCosts: Number(drawCosts),
  };
}

/** Claimed lots of a pack, how many distinct positions, the pack's status and its ラストワン賞 prizes. */
export async function packState(db: Database, gachaId: string) {
  const lots = await one<{ claimed: string; distinct: string; total: string }>(
    db,
    sql`select count(*) filter (where draw_id is not null) as claimed, count(distinct position) filter (where draw_id is not null) as distinct, count(*) as total from gacha_lots where gacha_id = ${gachaId}`,
  );
  const prizesByPosition = await one<{ n: string; distinct: string }>(
    db,
    sql`select count(*) as n, count(distinct position) as distinct from prizes where gacha_id = ${gachaId} and position is not null`,
  );
  const { status } = await one<{ status: string }>(db, sql`select status from gachas where id = ${gachaId}`);
  const { lastOnePrizes } = await one<{ lastOnePrizes: string }>(
    db,
    sql`select count(*) as "lastOnePrizes" from prizes p join gacha_tiers t on t.id = p.tier_id where p.gacha_id = ${gachaId} and t.is_last_one`,
  );
  const { lastOneDraws } = await one<{ lastOneDraws: string }>(
    db,
    sql`select count(*) as "lastOneDraws" from draws where gacha_id = ${gachaId} and last_one`,
  );
  return {
    claimed: Number(lots.claimed),
    distinctClaimed: Number(lots.distinct),
    total: Number(lots.total),
    prizes: Number(prizesByPosition.n),
    distinctPrizePositions: Number(prizesByPosition.distinct),
    status,
    lastOnePrizes: Number(lastOnePrizes),
    lastOneDraws: Number(lastOneDraws),
  };
}
