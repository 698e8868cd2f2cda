// What the database tells its observer: every statement drizzle sends (through the pool, a
// transaction's client, or the embedded database) with its text and never its values, how it ended,
// the waits for a pooled connection, and how the connections are used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { createTestDatabase, type TestDatabase } from '#tests/database';

let testDb: TestDatabase;
let handle: DatabaseHandle;
const statements: { text: string; error?: unknown }[] = [];
const waits: number[] = [];
let watching = true;
let onStatement: (() => void) | undefined;

beforeAll(async () => {
  testDb = await createTestDatabase('observe');
  handle = await openDatabase({
    databaseUrl: testDb.databaseUrl,
    dataDir: testDb.dataDir,
    poolSize: 2,
    observer: {
      statement(text) {
        if (!watching) return undefined;
        onStatement?.();
        const seen: { text: string; error?: unknown } = { text };
        return (error) => {
          if (error) seen.error = error;
          statements.push(seen);
        };
      },
      acquired: (seconds) => waits.push(seconds),
    },
  });
});
afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

describe('the database observer', () => {
  it('hears each statement once, its text without its values, and how it ended', async () => {
    statements.length = 0;
    await handle.db.execute(sql`select ${'taro@example.jp'}::text as email`);
    await expect(handle.db.execute(sql`select * from no_such_table_here`)).rejects.toThrow();
    expect(statements).toHaveLength(2);
    expect(statements[0]!.text).toBe('select $1::text as email');
    expect(statements[0]!.error).toBeUndefined();
    expect(statements[1]!.text).toContain('no_such_table_here');
    expect(statements[1]!.error).toBeDefined();
    expect(JSON.stringify(statements)).not.toContain('taro@example.jp');
  });

  it("hears a transaction's statements too", async () => {
    statements.length = 0;
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 as one`);
      await tx.execute(sql`select 2 as two`);
    });
    const texts = statements.map((s) => s.text);
    expect(texts).toContain('select 1 as one');
    expect(texts).toContain('select 2 as two');
  });

  it('leaves a statement unwatched when the observer says so', async () => {
    watching = false;
    statements.length = 0;
    try {
      await handle.db.execute(sql`select 3 as three`);
      expect(statements).toEqual([]);
    } finally {
      watching = true;
    }
  });

  it('says how the connections are used: a pool on PostgreSQL (with its waits), one connection embedded', async () => {
    const use = handle.connections();
    if (handle.engine === 'postgres') {
      expect(use.max).toBe(2);
      expect(waits.length).toBeGreaterThan(0);
      // Three at once on a pool of two: each hand-out is told, and the pool never grows past two.
      waits.length = 0;
      await Promise.all([1, 2, 3].map((n) => handle.db.execute(sql`select pg_sleep(0.05), ${n}::int`)));
      expect(waits).toHaveLength(3);
      expect(handle.connections().total).toBeLessThanOrEqual(2);
    } else {
      expect(use).toEqual({ total: 1, idle: 1, waiting: 0, max: 1 });
      // Seen as each statement starts: the third finds the connection busy and two callers queued.
      const seen: number[] = [];
      onStatement = () => seen.push(handle.connections().waiting);
      try {
        await Promise.all([1, 2, 3].map((n) => handle.db.execute(sql`select ${n}::int`)));
      } finally {
        onStatement = undefined;
      }
      expect(Math.max(...seen)).toBe(2);
      expect(handle.connections()).toEqual({ total: 1, idle: 1, waiting: 0, max: 1 });
    }
  });
});
