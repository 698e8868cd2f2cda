// The embedded database's online copy (issue 31 item 8, decision 073): `npm run shop -- backup` sent to
// the running shop while a member keeps drawing through the API; the shop never stops, the copy holds
// every draw answered before the command began and none answered after it ended, and restored into a
// fresh DATA_DIR (as docs/backups.md says) it starts a shop that draws on and passes
// `npm run shop -- invariants`. Needs a build (`npm run build`; npm test builds first).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '#db/client';
import { createPublishedPack } from '#tests/fixtures';
import { startInstances, STORM_AUTH_SECRET, type ShopCluster } from '#tests/instances';
import { createSessionMembers, type SessionMember } from '#tests/members';
import { scaledTimeout } from '#tests/settings';
import { runShopCommand, shopInvariants } from '#tests/backups';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-embedded-copy-'));
/** startInstances gives instance n the DATA_DIR `<dataDir>/instance-<n>`. */
const dataDirOf = (dataDir: string) => path.join(dataDir, 'instance-0');
const first = path.join(work, 'first');
const second = path.join(work, 'second');
const backups = path.join(work, 'backups');
let shop: ShopCluster | undefined;
/** A member's pace while the copy runs: a draw, then this pause (a pace, not a time limit). */
const PACE_MS = 50;

afterAll(async () => {
  await shop?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** One lot drawn through the API as the member; answers the draw's id. */
async function drawOnce(base: string, member: SessionMember, gachaId: string, key: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/gachas/${gachaId}/draws`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${member.bearer}`,
      origin: base,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ count: 1 }),
  });
  const body = await response.text();
  if (response.status !== 201) throw new Error(`draw ${key}: ${response.status} ${body.slice(0, 300)}`);
  return (JSON.parse(body) as { id: string }).id;
}

/** The ids of the draws and the backups' audit entries in an embedded database folder (no shop holding it). */
async function readEmbedded(dataDir: string) {
  const handle = await openDatabase({ dataDir });
  try {
    const draws = await queryRows<{ id: string }>(handle.db, sql`select id from draws`);
    const audits = await queryRows<{ after: { folder: string } }>(
      handle.db,
      sql`select after from admin_audit_log where action = 'database.backup'`,
    );
    return { draws: draws.map((row) => row.id), audits: audits.map((row) => row.after.folder) };
  } finally {
    await handle.close();
  }
}

describe('the embedded database copied while the shop serves', () => {
  it(
    'keeps serving draws during the copy, and the copy restores to a shop that starts and passes the invariants',
    async () => {
      const begun = Date.now();
      const lap = (label: string) => console.info(`[embedded-copy] ${label}: ${Date.now() - begun} ms`);
      // A pack and a member with coins, written before the shop opens the folder (it admits one process).
      const setup = await openDatabase({ dataDir: dataDirOf(first) });
      let member: SessionMember;
      let gachaId: string;
      try {
        await setup.migrate();
        [member] = (await createSessionMembers(setup.db, { count: 1, secret: STORM_AUTH_SECRET, paid: 200_000 })) as [
          SessionMember,
        ];
        // Lots enough for the slowest command line: one draw each PACE_MS, for minutes.
        gachaId = await createPublishedPack(setup.db, { lots: 10_000, price: 10 });
      } finally {
        await setup.close();
      }
      lap('embedded database ready');
      shop = await startInstances({ count: 1, dataDir: first, migrate: false, entry: 'runtime' });
      const base = shop.urls[0]!;
      lap('shop started');

      const before = [];
      for (let i = 0; i < 3; i++) before.push(await drawOnce(base, member, gachaId, `before:${i}`));
      // The copy through the running shop, while the member draws one lot after another.
      let copying = true;
      const command = runShopCommand(['backup', '--to', backups], { DATA_DIR: dataDirOf(first) }).finally(() => {
        copying = false;
      });
      const during: string[] = [];
      for (let i = 0; copying; i++) {
        during.push(await drawOnce(base, member, gachaId, `during:${i}`));
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
      const answered = await command;
      expect(answered, answered.stderr).toMatchObject({ code: 0 });
      const after = [];
      for (let i = 0; i < 2; i++) after.push(await drawOnce(base, member, gachaId, `after:${i}`));
      lap(`copied while ${during.length} draws were answered`);
      const copy = JSON.parse(answered.stdout.trim().split('\n').at(-1)!) as {
        ok: boolean;
        engine: string;
        folder: string;
        files: number;
        bytes: number;
        pausedMs: number;
      };
      expect(copy).toMatchObject({ ok: true, engine: 'pglite' });
      expect(path.dirname(copy.folder)).toBe(backups);
      expect(path.basename(copy.folder)).toMatch(/^pglite-\d{8}T\d{6}\.\d{3}Z$/);
      expect(fs.readdirSync(backups)).toEqual([path.basename(copy.folder)]);
      expect(fs.statSync(copy.folder).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(path.join(copy.folder, 'PG_VERSION'))).toBe(true);
      expect(copy.bytes).toBeGreaterThan(0);
      console.info(
        `[embedded-copy] ${copy.files} files, ${(copy.bytes / 1e6).toFixed(1)} MB; queries waited ${copy.pausedMs} ms`,
      );
      // The shop never stopped: it answered draws throughout and is healthy after.
      expect(during.length).toBeGreaterThan(0);
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      await shop.stop();
      expect(shop.unexpectedExits()).toEqual([]);
      const original = await readEmbedded(dataDirOf(first));
      expect(original.draws.sort()).toEqual([...before, ...during, ...after].sort());
      // Who took a copy of every member's data, and where, is in the audit log.
      expect(original.audits).toEqual([copy.folder]);
      lap('original checked');

      // The restore of docs/backups.md: the copy becomes DATA_DIR/pglite of a fresh DATA_DIR, with the
      // key files the shop generated (auth secret, address keys) copied beside it.
      fs.mkdirSync(dataDirOf(second), { recursive: true });
      fs.cpSync(copy.folder, path.join(dataDirOf(second), 'pglite'), { recursive: true });
      for (const key of ['auth-secret', 'address-keys']) {
        const file = path.join(dataDirOf(first), key);
        if (fs.existsSync(file)) fs.copyFileSync(file, path.join(dataDirOf(second), key));
      }
      shop = await startInstances({ count: 1, dataDir: second, migrate: false, entry: 'runtime' });
      const restoredBase = shop.urls[0]!;
      const drawnAfterRestore = await drawOnce(restoredBase, member, gachaId, 'after-restore');
      const checked = await shopInvariants({ DATA_DIR: dataDirOf(second) });
      expect(checked, checked.stderr).toMatchObject({ code: 0, ok: true, violations: [] });
      await shop.stop();
      lap('restored shop drew and passed the invariants');

      // The copy is the database at one moment of the command: everything answered before it began, nothing
      // answered after it ended, and of the draws in between a first part (one draw at a time, in order).
      const restored = (await readEmbedded(dataDirOf(second))).draws.filter((id) => id !== drawnAfterRestore);
      for (const id of before) expect(restored).toContain(id);
      for (const id of after) expect(restored).not.toContain(id);
      const fromDuring = restored.filter((id) => during.includes(id));
      expect(fromDuring.sort()).toEqual(during.slice(0, fromDuring.length).sort());
      expect(restored).toHaveLength(before.length + fromDuring.length);
      lap('restored copy checked');
    },
    scaledTimeout(300_000),
  );
});
