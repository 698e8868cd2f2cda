// The admin CSV exports' stream: every row once, in key order, across batches (keyset, a batch of 2 over
// more rows), a BOM and the header first, formulas escaped, and the next batch read only when the
// reader asks for it (one batch queued at most: constant memory whatever the list's length).
import { describe, it, expect } from 'vitest';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { createMemberWithCoins } from '#tests/fixtures';
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { users } from '#db/schema';
import { listLedgerEntries } from '#modules/wallet';
import { EXPORT_KINDS, exportStream } from './admin-exports.server';

const handle = testDatabase('admin_exports', { invariants: 'afterEach' });

async function readAll(stream: ReadableStream<Uint8Array>) {
  const text = await new Response(stream).text();
  return text;
}

describe('CSV exports', () => {
  it('streams every ledger entry once, in order, across batches, header first', async () => {
    const members = [];
    for (let i = 0; i < 3; i++) members.push(await createMemberWithCoins(handle.db, { paid: 100 + i, free: 5 }));
    const entries = (
      await Promise.all(members.map(async (m) => (await listLedgerEntries(handle.db, m, { limit: 50 })).items))
    ).flat();
    expect(entries.length).toBeGreaterThanOrEqual(6);
    const bytes = new Uint8Array(await new Response(exportStream(handle.db, EXPORT_KINDS.ledger, 2)).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trimEnd().split('\r\n');
    expect(lines[0]).toBe(EXPORT_KINDS.ledger.columns.join(','));
    const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of entries) expect(ids).toContain(e.id);
  });

  it('reads the next batch only when the reader asks for it', async () => {
    for (let i = 0; i < 4; i++) await createMemberWithCoins(handle.db, { paid: 10 });
    let reads = 0;
    const counting: Database = new Proxy(handle.db, {
      get(target, prop, receiver) {
        if (prop === 'select') reads++;
        return Reflect.get(target, prop, receiver);
      },
    });
    const reader = exportStream(counting, EXPORT_KINDS.members, 1).getReader();
    await reader.read(); // the header
    await new Promise((resolve) => setTimeout(resolve, 50));
    const early = reads;
    expect(early).toBeLessThanOrEqual(2);
    await reader.read();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBeGreaterThan(early);
    expect(reads).toBeLessThanOrEqual(early + 3);
    await reader.cancel();
  });

  it('escapes cells a spreadsheet would run as formulas', async () => {
    const member = await createMemberWithCoins(handle.db, { paid: 1 });
    await handle.db.update(users).set({ name: '=HYPERLINK("https://evil.example")' }).where(eq(users.id, member));
    const text = await readAll(exportStream(handle.db, EXPORT_KINDS.members));
    const line = text.split('\r\n').find((l) => l.startsWith(member))!;
    expect(line).toContain("'=HYPERLINK");
    expect(line).not.toMatch(/,"?=HYPERLINK/);
  });
});
