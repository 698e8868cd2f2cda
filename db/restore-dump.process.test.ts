// A logical backup restored into a fresh PostgreSQL cluster starts the shop with no manual step
// (issue 31 item 8, decision 073): deploy/backup/pg-dump.sh dumps as the owner role, restore-dump.sh
// restores into a cluster that has never seen the shop's roles, and two instances of the built shop,
// started together with DATABASE_ADMIN_URL, make the roles once between them (one repairs, the other
// finds it done), migrate and serve; `npm run shop -- invariants` passes, the data is the dump's, and
// the shop role again holds exactly db/roles-allow-list.txt: it cannot rewrite the ledger.
// Needs a build (`npm run build`; npm test builds first). Skipped, and says why, without PostgreSQL's
// server programs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#db/client';
import { setUpDatabaseRoles } from '#db/roles';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { startInstances, type ShopCluster } from '#tests/instances';
import { startPrivatePostgres, type PrivatePostgres } from '#tests/private-postgres';
import { scaledTimeout } from '#tests/settings';
import {
  allowListDifference,
  libpqEnvironment,
  runBackupScript,
  shopInvariants,
  urlOn,
  withClient,
} from '#tests/backups';
import { drawLots } from '#modules/draw';
import { getBalance } from '#modules/wallet';

const ROLES = {
  owner: 'oripa_owner',
  ownerPassword: 'owner-password-for-the-restore-test',
  shop: 'oripa_shop',
  shopPassword: 'shop-password-for-the-restore-test',
};
const DATABASE = 'oripa';

const source = await startPrivatePostgres();
const unavailable = 'unavailable' in source ? source.unavailable : null;
if (unavailable) console.warn(`[restore-dump] skipped: ${unavailable}`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-restore-dump-'));
let target: PrivatePostgres | undefined;
let shops: ShopCluster | undefined;

afterAll(async () => {
  await shops?.stop();
  target?.destroy();
  if (!unavailable) (source as PrivatePostgres).destroy();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The owner's and the shop role's URLs on a cluster's shop database. */
const urlsOf = (cluster: PrivatePostgres) => ({
  admin: urlOn(cluster.url, DATABASE),
  owner: urlOn(cluster.url, DATABASE, ROLES.owner, ROLES.ownerPassword),
  shop: urlOn(cluster.url, DATABASE, ROLES.shop, ROLES.shopPassword),
});

/** What a restore must bring back: the draws, the ledger, and one member's balance. */
async function contentOf(url: string, member: string) {
  const handle = await openDatabase({ databaseUrl: url, dataDir: work, poolSize: 1 });
  try {
    const counts = await withClient(url, async (client) => {
      const { rows } = await client.query<{ draws: string; ledger: string; lots: string }>(
        `select (select count(*) from draws) as draws, (select count(*) from coin_ledger) as ledger,
                (select count(*) from gacha_lots where draw_id is not null) as lots`,
      );
      return rows[0]!;
    });
    return { ...counts, balance: (await getBalance(handle.db, member)).total };
  } finally {
    await handle.close();
  }
}

describe.skipIf(unavailable !== null)(
  `a pg_dump restored into a fresh cluster${unavailable ? ` — SKIPPED: ${unavailable}` : ''}`,
  () => {
    it(
      'starts the shop with no manual step, passes the invariants, and keeps the shop role from rewriting the ledger',
      async () => {
        const started = Date.now();
        const lap = (label: string) => console.info(`[restore-dump] ${label}: ${Date.now() - started} ms`);
        const from = urlsOf(source as PrivatePostgres);
        // The source: a shop with separate roles (npm run db:roles), migrated as the owner, one member's draw.
        await withClient((source as PrivatePostgres).url, (client) => client.query(`create database ${DATABASE}`));
        await withClient(from.admin, (client) => setUpDatabaseRoles(client, ROLES));
        const serving = await openDatabase({
          databaseUrl: from.shop,
          migrationUrl: from.owner,
          dataDir: work,
          poolSize: 2,
        });
        let member: string;
        try {
          await serving.migrate();
          member = await createMemberWithCoins(serving.db, { paid: 1000 });
          const gachaId = await createPublishedPack(serving.db, { lots: 20, price: 100 });
          const drawn = await drawLots(serving.db, {
            memberId: member,
            gachaId,
            count: 1,
            idempotencyKey: 'restore-dump:1',
            decisionDays: TEST_RULES.prizeDecisionDays,
          });
          expect(drawn.ok ? null : drawn).toBeNull();
        } finally {
          await serving.close();
        }
        const before = await contentOf(from.admin, member);
        expect(before).toMatchObject({ draws: '1', lots: '1', balance: 900 });

        lap('source ready');
        // The backup, as the owner role (no superuser).
        const dumped = await runBackupScript('pg-dump.sh', [path.join(work, 'dumps')], libpqEnvironment(from.owner));
        expect(dumped, dumped.stderr).toMatchObject({ code: 0 });
        const dumpFile = dumped.stdout.trim();
        expect(fs.existsSync(dumpFile) && !fs.existsSync(`${dumpFile}.partial`)).toBe(true);

        // A fresh cluster: no roles but its superuser, an empty database.
        const fresh = await startPrivatePostgres();
        if ('unavailable' in fresh) throw new Error(fresh.unavailable);
        target = fresh;
        const to = urlsOf(target);
        await withClient(target.url, (client) => client.query(`create database ${DATABASE}`));
        const restored = await runBackupScript('restore-dump.sh', [dumpFile], libpqEnvironment(to.admin));
        expect(restored, restored.stderr).toMatchObject({ code: 0 });
        expect(
          await withClient(target.url, async (client) => {
            const { rows } = await client.query('select rolname from pg_roles where rolname = any($1)', [
              [ROLES.owner, ROLES.shop],
            ]);
            return rows;
          }),
        ).toEqual([]);
        // The script never restores over a shop's tables.
        const again = await runBackupScript('restore-dump.sh', [dumpFile], libpqEnvironment(to.admin));
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('restore into a new, empty one');

        lap('dumped and restored');
        // Two instances started together, as after a restore: nothing run by hand, only the settings.
        shops = await startInstances({
          count: 2,
          databaseUrl: to.shop,
          migrationUrl: to.owner,
          dataDir: path.join(work, 'shops'),
          migrate: false,
          // The compiled server, as `npm run serve` starts it; jobs on, so pg-boss is installed by the owner too.
          entry: 'runtime',
          env: { DATABASE_ADMIN_URL: to.admin, JOBS_ENABLED: 'true' },
        });
        for (const url of shops.urls) expect((await fetch(`${url}/api/health`)).status).toBe(200);
        // One instance repaired (under the migration lock), the other found the roles in place.
        const repaired = shops.grepLogs(/database roles repaired at start/);
        expect(repaired, shops.logTail(0) + shops.logTail(1)).toHaveLength(1);
        expect(repaired[0]).toContain(`created role ${ROLES.owner}`);
        expect(repaired[0]).toContain(`created role ${ROLES.shop}`);
        expect(repaired[0]).not.toContain(ROLES.shopPassword);
        const audit = await withClient(to.admin, async (client) => {
          const { rows } = await client.query<{ actor_label: string; after: { changes: string[] } }>(
            `select actor_label, after from admin_audit_log where action = 'database.roles.repair'`,
          );
          return rows;
        });
        expect(audit).toHaveLength(1);
        expect(audit[0]!.actor_label).toMatch(/^start:/);
        expect(audit[0]!.after.changes).toContain(`created role ${ROLES.shop}`);

        // The shops have served; the rest is checked without them competing for the two cores.
        await shops.stop();
        lap('two shops started, checked and stopped');
        // The operators' check, with the shop's own settings.
        const checked = await shopInvariants({
          DATABASE_URL: to.shop,
          DATABASE_MIGRATION_URL: to.owner,
          DATA_DIR: path.join(work, 'command-line'),
        });
        expect(checked, checked.stderr).toMatchObject({ code: 0, ok: true, violations: [] });
        expect(await contentOf(to.admin, member)).toEqual(before);

        // The repaired shop role holds exactly the allow-list: the ledger is not its to rewrite.
        expect(await allowListDifference(to.admin, ROLES.shop, ROLES.owner)).toEqual([]);
        for (const statement of [
          'update coin_ledger set amount = amount + 1000',
          'delete from coin_ledger',
          'truncate coin_ledger',
          'alter table coin_ledger disable trigger all',
        ]) {
          const refused = await withClient(to.shop, (client) =>
            client.query(statement).then(
              () => 'accepted',
              (error: Error) => error.message,
            ),
          );
          expect(refused, statement).toMatch(/permission denied|must be owner/);
        }
        lap('checked');
      },
      scaledTimeout(240_000),
    );
  },
);
