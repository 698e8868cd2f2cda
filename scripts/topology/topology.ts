// The local topology (docs/deploy.md): haproxy → three shop instances (the first runs the jobs) →
// pgbouncer (transaction pooling) → haproxy's address of the primary → a pg_auto_failover primary and its
// synchronous standby, with Redis for the rate limits. Brought up in a work folder on loopback ports from
// deploy/'s own files, recorded in the folder's topology.json so `down` and `status` find it, and
// answered as a handle with the controls a test needs to break it: kill and start an instance, restart
// pgbouncer, fail over.
import fs from 'node:fs';
import path from 'node:path';
import { DATABASE, localValues, newSecrets, postgresBinaries, type TopologyPorts } from './layout';
import {
  createDataNode,
  createMonitor,
  configureFormation,
  nodeName,
  nodeStates,
  performFailover,
  primaryOf,
  runNode,
  settled,
  stopNode,
  stopServerImmediately,
  type NodeState,
} from './postgres';
import {
  isRunning,
  killPartGroup,
  portOpen,
  postgresUser,
  runToEnd,
  stopPart,
  stopPartsOnExit,
  tail,
  waitFor,
} from './processes';
import { projectRoot, renderDeployment } from './render';
import {
  SHOP_ENTRY,
  startLoadBalancer,
  startPgbouncerPart,
  startPrimaryAddress,
  startRedisPart,
  startShopPart,
  createRoles,
} from './parts';
import {
  logOf,
  postgresLayout,
  primaryServers,
  readState,
  save,
  seconds,
  shopServers,
  urlsOf,
  type TopologyState,
} from './state';
import type { BackendServer } from './haproxy';
import { statusOf, type PartStatus } from './status';

export type { PartStatus } from './status';
export type { NodeState } from './postgres';
export type { TopologyPorts } from './layout';
export type { BackendServer } from './haproxy';

export interface TopologyOptions {
  /** The work folder: created, or emptied when it holds a stopped topology. */
  dir: string;
  ports: TopologyPorts;
  /** Load the demo packs on the first start (default true: a shop to look at). */
  demoData?: boolean;
  logLevel?: string;
  /** More settings for every instance (e.g. SMTP_URL and MAIL_FROM, IMAGE_WARM_UP=false). */
  shopSettings?: Record<string, string>;
  /** Multiplies every wait (TEST_TIMEOUT_SCALE in a test). */
  patience?: number;
  /** Kill everything if this process exits without `stop()` (a test); `up` turns it off once all is up. */
  stopOnExit?: boolean;
  /** Progress lines. */
  say?: (line: string) => void;
}

export interface Topology {
  dir: string;
  ports: TopologyPorts;
  /** The shop, through haproxy (also every instance's PUBLIC_ORIGIN). */
  shopUrl: string;
  /** Each instance directly; the first runs the jobs. */
  instanceUrls: string[];
  /** The instances' AUTH_SECRET (a test signs its members' sessions with it). */
  authSecret: string;
  /** Through pgbouncer: the shop role's pool, its session pool, the owner; and a superuser on the primary. */
  databaseUrls: { shop: string; session: string; owner: string; admin: string };
  /** Each part: running or not, and what it says (states, servers in rotation, health). */
  status(): Promise<PartStatus[]>;
  /** Sends an instance a signal (SIGKILL by default) and waits until it has gone. */
  killShop(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped instance again and waits for its health. */
  startShop(index: number): Promise<void>;
  stopPgbouncer(): Promise<void>;
  startPgbouncer(): Promise<void>;
  /** Stops pgbouncer (every client's connection drops) and starts it again. */
  restartPgbouncer(): Promise<void>;
  /** `pg_autoctl perform failover`; resolves once the other node is the primary and the old one follows it. */
  failover(): Promise<{ from: string; to: string }>;
  /**
   * The primary fails as a machine does: its pg_autoctl service is SIGKILLed and its PostgreSQL stopped
   * without a shutdown checkpoint (immediate). Resolves once the monitor has promoted the standby (it
   * then runs alone, `wait_primary`); the failed node stays down until `startNode`.
   */
  failPrimary(): Promise<{ from: string; to: string }>;
  /** Starts a stopped data node's service; resolves once it follows the primary as its synchronous standby. */
  startNode(name: string): Promise<void>;
  /** The data nodes as the monitor sees them. */
  nodeStates(): NodeState[];
  /** haproxy's view: which instances are in its rotation, which data node it lets through as the primary. */
  servers(): Promise<{ shop: BackendServer[]; postgres: BackendServer[] }>;
  /** The last lines of a part's log (shop-1, pgbouncer, node1…). */
  logTail(part: string, lines?: number): string;
  /** Stops every part, last started first. */
  stop(): Promise<void>;
}

/** The programs a bring-up needs, each with what provides it; a missing one is named. */
export function missingPrograms(): string[] {
  const needs: [string, string][] = [
    ['pg_autoctl', 'pg_auto_failover (Debian: postgresql-15-auto-failover)'],
    ['pgbouncer', 'pgbouncer'],
    ['haproxy', 'haproxy'],
    ['redis-server', 'redis-server'],
    ['psql', 'postgresql-client'],
  ];
  const missing = needs.filter(([program]) => runToEndQuietly('sh', ['-c', `command -v ${program}`]) === null);
  const names = missing.map(([program, from]) => `${program} (${from})`);
  if (!postgresBinaries()) names.push('initdb and pg_ctl (Debian: postgresql-15)');
  const runAs = postgresUser();
  if (typeof runAs === 'string') names.push(runAs);
  return names;
}

function runToEndQuietly(command: string, args: string[]): string | null {
  try {
    return runToEnd(command, args, { env: process.env, cwd: projectRoot, timeoutMs: 10_000 });
  } catch {
    return null;
  }
}

/**
 * Brings the topology up and answers its handle; on any failure stops what it started and throws.
 * @example const topology = await startTopology({ dir, ports: portsFrom(7400) }); …; await topology.stop()
 */
export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const missing = missingPrograms();
  if (missing.length > 0) throw new Error(`the topology needs: ${missing.join('; ')}`);
  if (!fs.existsSync(SHOP_ENTRY)) throw new Error(`no build at ${SHOP_ENTRY}: run \`npm run build\` first`);
  prepareFolder(options.dir);
  const state: TopologyState = {
    dir: path.resolve(options.dir),
    ports: options.ports,
    secrets: newSecrets(),
    shopSettings: { IMAGE_WARM_UP: 'false', ...options.shopSettings },
    patience: options.patience ?? 1,
    startedAt: new Date().toISOString(),
    parts: {},
  };
  const topology = handleOf(state, options.say ?? (() => undefined));
  stopPartsOnExit(options.stopOnExit ?? true, () => {
    for (const name of ['node2', 'node1', 'monitor']) stopServerImmediately(postgresLayout(state), name);
  });
  try {
    await bringUp(state, options, options.say ?? (() => undefined));
  } catch (error) {
    await topology.stop().catch(() => undefined);
    throw error;
  }
  return topology;
}

/** The handle of a topology brought up earlier (by `npm run topology`), from its folder's topology.json. */
export function openTopology(dir: string, say: (line: string) => void = () => undefined): Topology | null {
  const state = readState(dir);
  return state ? handleOf(state, say) : null;
}

/** Creates the work folder, or empties one a stopped topology left (its logs); refuses anything else. */
function prepareFolder(dir: string): void {
  if (fs.existsSync(dir)) {
    const entries = fs.readdirSync(dir);
    const previous = readState(dir);
    if (entries.length > 0 && !previous)
      throw new Error(`${dir} is not empty and holds no topology: choose another folder`);
    if (previous) {
      const running = Object.keys(previous.parts).filter((name) => isRunning(previous.parts[name]));
      if (running.length > 0)
        throw new Error(`a topology is running in ${dir} (${running.join(', ')}): \`npm run topology -- down\` first`);
    }
    for (const entry of entries) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
  for (const sub of ['', 'config', 'logs', 'run', 'redis']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const runAs = postgresUser();
  // pg_autoctl creates its folders (monitor/, node1/, pg-home/) here as the postgres user.
  if (runAs && typeof runAs !== 'string') fs.chownSync(dir, runAs.uid, runAs.gid);
}

/** The steps, in order: PostgreSQL, its primary address, the roles, pgbouncer, Redis, the shops, haproxy. */
async function bringUp(state: TopologyState, options: TopologyOptions, tell: (line: string) => void) {
  const started = Date.now();
  const layout = postgresLayout(state);
  const say = (line: string) => tell(`${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${line}`);
  renderDeployment(
    localValues({
      dir: state.dir,
      ports: state.ports,
      secrets: state.secrets,
      demoData: options.demoData ?? true,
      logLevel: options.logLevel ?? 'info',
      shopSettings: state.shopSettings,
    }),
    path.join(state.dir, 'config'),
  );
  // pgbouncer (its configuration, and userlist.sh writing its auth_file) and pg-auto-failover.sh run as postgres.
  if (layout.runAs)
    for (const file of ['', 'pgbouncer.ini', 'postgresql.shop.conf'])
      fs.chownSync(path.join(state.dir, 'config', file), layout.runAs.uid, layout.runAs.gid);
  save(state);

  say('PostgreSQL: the pg_auto_failover monitor');
  createMonitor(layout);
  state.parts.monitor = runNode(layout, 'monitor');
  save(state);
  await waitFor('the monitor', () => portOpen(state.ports.monitor), seconds(state, 60), state.parts.monitor);
  for (const [index, name] of state.ports.nodes.map((_, i) => [i, nodeName(i)] as const)) {
    say(`PostgreSQL: ${name} (${index === 0 ? 'the primary' : 'its standby, copied from it'})`);
    createDataNode(layout, index);
    state.parts[name] = runNode(layout, name);
    save(state);
    await waitFor(
      `${name} to join`,
      async () => {
        const now = nodeStates(layout);
        return index === 0
          ? now.some((s) => s.current === 'single' && s.assigned === 'single')
          : settled(now, index + 1);
      },
      seconds(state, 120),
      state.parts[name],
    );
  }
  configureFormation(layout, state.ports.nodes[0]!);
  // The primary applies the replication settings (a short apply_settings state) before it settles again.
  await waitFor(
    'the primary and its standby',
    async () => settled(nodeStates(layout), state.ports.nodes.length),
    seconds(state, 60),
  );
  say(`PostgreSQL: primary ${primaryOf(nodeStates(layout))?.name}, its synchronous standby ready`);

  await startPrimaryAddress(state);
  await createRoles(state, layout.runAs);
  await startPgbouncerPart(state);
  say(
    `pgbouncer on 127.0.0.1:${state.ports.pgbouncer} (transaction pool ${DATABASE.name}, session pool ${DATABASE.name}_session)`,
  );
  await startRedisPart(state);

  // All at once: their migrations take turns on the migration's lock (the first one migrates, the others
  // find nothing to do), and one of them loads the demo data.
  say(
    `shop instances ${state.ports.instances.map((port) => `127.0.0.1:${port}`).join(', ')} (the first runs the jobs)`,
  );
  await Promise.all(state.ports.instances.map((_, index) => startShopPart(state, index)));
  say(`haproxy on ${state.ports.shop}`);
  await startLoadBalancer(state);
  say('up');
}

/** The order everything stops in: the way in first, the database last. */
const STOP_ORDER = [
  'lb',
  'shop-3',
  'shop-2',
  'shop-1',
  'pgbouncer',
  'redis',
  'postgres-lb',
  'node2',
  'node1',
  'monitor',
];

function handleOf(state: TopologyState, say: (line: string) => void): Topology {
  const urls = urlsOf(state);
  const layout = () => postgresLayout(state);
  const topology: Topology = {
    dir: state.dir,
    ports: state.ports,
    ...urls,
    authSecret: state.secrets.authSecret,
    status: () => statusOf(state),
    async killShop(index, signal = 'SIGKILL') {
      await stopPart(state.parts[`shop-${index + 1}`], signal, signal === 'SIGKILL' ? 5000 : 30_000);
    },
    async startShop(index) {
      if (isRunning(state.parts[`shop-${index + 1}`])) return;
      await startShopPart(state, index);
    },
    async stopPgbouncer() {
      await stopPart(state.parts.pgbouncer, 'SIGTERM', 5000);
    },
    async startPgbouncer() {
      if (!isRunning(state.parts.pgbouncer)) await startPgbouncerPart(state);
    },
    async restartPgbouncer() {
      await topology.stopPgbouncer();
      await topology.startPgbouncer();
    },
    async failover() {
      const from = primaryOf(nodeStates(layout()))?.name;
      if (!from) throw new Error('no primary to fail over from');
      performFailover(layout());
      let to: string | undefined;
      await waitFor(
        'the failover',
        async () => {
          const now = nodeStates(layout());
          to = primaryOf(now)?.name;
          return settled(now, state.ports.nodes.length) && to !== from;
        },
        seconds(state, 120),
      );
      return { from, to: to! };
    },
    async failPrimary() {
      const from = primaryOf(nodeStates(layout()))?.name;
      if (!from) throw new Error('no primary to fail');
      // The machine dies: its service, the service's children and PostgreSQL at once.
      await killPartGroup(state.parts[from]);
      stopServerImmediately(layout(), from);
      let to: string | undefined;
      await waitFor(
        'the standby to be promoted',
        async () => {
          const promoted = nodeStates(layout()).find(
            (s) => s.name !== from && ['wait_primary', 'primary'].includes(s.current) && s.current === s.assigned,
          );
          to = promoted?.name;
          return to !== undefined;
        },
        seconds(state, 180),
      );
      return { from, to: to! };
    },
    async startNode(name) {
      if (!isRunning(state.parts[name])) {
        state.parts[name] = runNode(layout(), name);
        save(state);
      }
      await waitFor(
        `${name} to follow the primary`,
        async () => {
          const now = nodeStates(layout());
          return settled(now, state.ports.nodes.length) && primaryOf(now)?.name !== name;
        },
        seconds(state, 180),
        state.parts[name],
      );
    },
    nodeStates: () => nodeStates(layout()),
    servers: async () => ({ shop: await shopServers(state), postgres: await primaryServers(state) }),
    logTail: (part, lines = 40) => tail(logOf(state, part), lines),
    async stop() {
      for (const name of STOP_ORDER) {
        const part = state.parts[name];
        if (!part) continue;
        if (['node2', 'node1', 'monitor'].includes(name)) await stopNode(layout(), name, part);
        else await stopPart(part, 'SIGTERM', name.startsWith('shop-') ? 20_000 : 5000);
        if (isRunning(part)) say(`${name} (pid ${part.pid}) did not stop`);
        else delete state.parts[name];
        save(state);
      }
    },
  };
  return topology;
}
