// A streaming replica of the primary (decision 075): a pool of its own, read-only, and the two WAL
// positions the shop compares to know how far behind it is. Opened only when DATABASE_REPLICA_URL is set.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client';
import * as schema from './schema';

/** A WAL position ('16/B374D848') as a number that compares. */
export function lsnValue(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new RangeError(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** How far the primary has written its WAL (no privilege needed; writes nothing). */
export async function primaryWalPosition(db: Database): Promise<bigint> {
  const [row] = await queryRows<{ lsn: string }>(db, sql`select pg_current_wal_lsn()::text as lsn`);
  return lsnValue(row!.lsn);
}

export interface ReplicaHandle {
  db: Database;
  /** How far the replica has replayed the primary's WAL; null when the server is not a standby. */
  replayedPosition(): Promise<bigint | null>;
  close(): Promise<void>;
}

/**
 * Opens the replica's pool. Every session is read-only (`default_transaction_read_only`), so a write that
 * reached it by mistake fails loudly instead of being refused only by the standby.
 * @example const replica = await openReplica({ url: config.DATABASE_REPLICA_URL, poolSize: 10 })
 */
export async function openReplica(options: { url: string; poolSize: number }): Promise<ReplicaHandle> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolSize,
    options: '-c default_transaction_read_only=on',
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Database;
  return {
    db,
    async replayedPosition() {
      const [row] = await queryRows<{ lsn: string | null }>(
        db,
        sql`select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text end as lsn`,
      );
      return row?.lsn ? lsnValue(row.lsn) : null;
    },
    close: () => pool.end(),
  };
}
