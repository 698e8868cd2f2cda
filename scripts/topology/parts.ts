// The topology's parts after PostgreSQL, each started from deploy/'s rendered files and waited for:
// haproxy's primary address, the database roles and pgbouncer's auth_file, pgbouncer, Redis, a shop
// instance, haproxy in front of the instances.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { setUpDatabaseRoles } from '#db/roles';
import { DATABASE } from './layout';
import { baseEnvironment, launch, portOpen, runToEnd, waitFor, type RunAs } from './processes';
import { parseSettings, projectRoot } from './render';
import { logOf, primaryServers, query, runAsOf, save, seconds, shopServers, urlsOf, type TopologyState } from './state';

export const SHOP_ENTRY = path.join(projectRoot, 'build', 'server-runtime', 'start.js');

/**
 * haproxy's TCP address of the primary (pgbouncer's server), up once its checks have taken every standby
 * out (haproxy starts with every server in, until its first check) and a login through it reaches the primary.
 */
export async function startPrimaryAddress(state: TopologyState) {
  state.parts['postgres-lb'] = launch({
    command: 'haproxy',
    args: ['-f', path.join(state.dir, 'config', 'postgres-primary.cfg')],
    env: baseEnvironment(null),
    cwd: state.dir,
    log: logOf(state, 'postgres-lb'),
    match: 'postgres-primary.cfg',
  });
  save(state);
  const { admin } = urlsOf(state).databaseUrls;
  await waitFor(
    "haproxy's primary address",
    async () =>
      (await primaryServers(state)).filter((server) => server.status === 'UP').length === 1 &&
      (await query(admin, 'select pg_is_in_recovery() as standby'))[0]?.standby === false,
    seconds(state, 30),
    state.parts['postgres-lb'],
  );
}

/** The owner and shop roles as `npm run db:roles` makes them, pgbouncer's console role, and its auth_file. */
export async function createRoles(state: TopologyState, runAs: RunAs | null) {
  const client = new pg.Client({ connectionString: urlsOf(state).databaseUrls.admin });
  await client.connect();
  try {
    await setUpDatabaseRoles(client, {
      owner: DATABASE.owner,
      ownerPassword: state.secrets.ownerPassword,
      shop: DATABASE.shop,
      shopPassword: state.secrets.shopPassword,
    });
    const admin = client.escapeIdentifier(DATABASE.pgbouncerAdmin);
    const [exists] = (await client.query('select 1 from pg_roles where rolname = $1', [DATABASE.pgbouncerAdmin])).rows;
    await client.query(
      `${exists ? 'alter' : 'create'} role ${admin} nologin password ${client.escapeLiteral(state.secrets.pgbouncerAdminPassword)}`,
    );
  } finally {
    await client.end();
  }
  const userlist = path.join(state.dir, 'config', 'userlist.txt');
  runToEnd(
    'bash',
    [
      path.join(projectRoot, 'deploy', 'pgbouncer', 'userlist.sh'),
      userlist,
      DATABASE.owner,
      DATABASE.shop,
      DATABASE.pgbouncerAdmin,
    ],
    {
      env: baseEnvironment(runAs, { PGHOST: '127.0.0.1', PGPORT: String(state.ports.pgPrimary) }),
      cwd: state.dir,
      runAs,
    },
  );
}

/** pgbouncer as the postgres user, up once the shop role logs in through it. @example await startPgbouncerPart(state) */
export async function startPgbouncerPart(state: TopologyState) {
  state.parts.pgbouncer = launch({
    command: 'pgbouncer',
    args: [path.join(state.dir, 'config', 'pgbouncer.ini')],
    env: baseEnvironment(runAsOf()),
    cwd: state.dir,
    runAs: runAsOf(),
    log: logOf(state, 'pgbouncer'),
    match: 'pgbouncer.ini',
  });
  save(state);
  const { shop } = urlsOf(state).databaseUrls;
  await waitFor(
    'pgbouncer',
    async () => (await query(shop, 'select 1 as one'))[0]?.one === 1,
    seconds(state, 30),
    state.parts.pgbouncer,
  );
}

/** Starts instance `index` from the rendered shop.env and waits for its health. */
export async function startShopPart(state: TopologyState, index: number) {
  const port = state.ports.instances[index]!;
  const dataDir = path.join(state.dir, `shop-${index + 1}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const name = `shop-${index + 1}`;
  state.parts[name] = launch({
    command: process.execPath,
    args: ['--max-semi-space-size=8', SHOP_ENTRY],
    env: {
      ...baseEnvironment(null),
      ...parseSettings(fs.readFileSync(path.join(state.dir, 'config', 'shop.env'), 'utf8')),
      ...state.shopSettings,
      MALLOC_ARENA_MAX: '2',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      JOBS_ENABLED: String(index === 0),
      // The instance's sessions are named in pg_stat_activity (through pgbouncer too, for the session pool).
      PGAPPNAME: name,
    },
    cwd: projectRoot,
    log: logOf(state, name),
    match: SHOP_ENTRY,
  });
  save(state);
  await waitFor(
    `shop instance ${index + 1}`,
    async () => (await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(3000) })).ok,
    seconds(state, 180),
    state.parts[name],
  );
}

/** haproxy in front of the instances, up once it has every instance in its rotation. */
export async function startLoadBalancer(state: TopologyState) {
  state.parts.lb = launch({
    command: 'haproxy',
    args: ['-f', path.join(state.dir, 'config', 'haproxy.cfg')],
    env: baseEnvironment(null),
    cwd: state.dir,
    log: logOf(state, 'lb'),
    match: 'haproxy.cfg',
  });
  save(state);
  await waitFor(
    'haproxy to take every instance',
    async () => (await shopServers(state)).filter((s) => s.status === 'UP').length === state.ports.instances.length,
    seconds(state, 60),
    state.parts.lb,
  );
}

/** Redis for the rate limits: nothing kept on disk. */
export async function startRedisPart(state: TopologyState) {
  state.parts.redis = launch({
    command: 'redis-server',
    args: ['--bind', '127.0.0.1', '--port', String(state.ports.redis), '--save', '', '--appendonly', 'no'],
    env: baseEnvironment(null),
    cwd: path.join(state.dir, 'redis'),
    log: logOf(state, 'redis'),
    match: 'redis-server',
  });
  save(state);
  await waitFor('Redis', () => portOpen(state.ports.redis), seconds(state, 30), state.parts.redis);
}
