// The topology's PostgreSQL: a pg_auto_failover monitor and two data nodes on loopback ports, made and
// run by deploy/postgres/pg-auto-failover.sh as a deployer runs it on real machines (there with
// scram-sha-256 and TLS; here trust and no TLS, on 127.0.0.1 only).
import fs from 'node:fs';
import path from 'node:path';
import {
  baseEnvironment,
  isRunning,
  killPartGroup,
  launch,
  runToEnd,
  stopPart,
  waitUntilGone,
  type PartRecord,
} from './processes';
import type { RunAs } from './processes';
import { projectRoot } from './render';

const SCRIPT = path.join(projectRoot, 'deploy', 'postgres', 'pg-auto-failover.sh');

/** Where the cluster lives and how to reach its tools. */
export interface PostgresLayout {
  /** The work folder: monitor/, node1/, node2/, pg-home/ (pg_autoctl's own configuration), logs/. */
  dir: string;
  /** PostgreSQL's programs (initdb, pg_ctl, psql). */
  bin: string;
  runAs: RunAs | null;
  monitorPort: number;
  nodePorts: readonly number[];
  /** The rendered postgresql.shop.conf. */
  shopConf: string;
  dbName: string;
}

/** One data node as the monitor sees it. */
export interface NodeState {
  name: string;
  port: number;
  /** What the node reports (primary, secondary, catchingup, wait_primary, draining, demoted…). */
  current: string;
  /** What the monitor asked of it. */
  assigned: string;
}

/** A data node's name and folder: node1, node2. @example nodeName(0) === 'node1' */
export const nodeName = (index: number) => `node${index + 1}`;
export const dataFolder = (layout: PostgresLayout, name: string) => path.join(layout.dir, name);

/** The environment of every pg_autoctl call: one configuration folder for the whole cluster (XDG). */
function environment(layout: PostgresLayout, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = path.join(layout.dir, 'pg-home');
  return baseEnvironment(layout.runAs, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'share'),
    PATH: `${layout.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    PG_BINDIR: layout.bin,
    PGAF_HOSTNAME: '127.0.0.1',
    PGAF_AUTH: 'trust',
    PGAF_SSL: '--no-ssl',
    ...extra,
  });
}

function script(layout: PostgresLayout, step: string, extra: Record<string, string>): string {
  return runToEnd('bash', [SCRIPT, step], { env: environment(layout, extra), cwd: layout.dir, runAs: layout.runAs });
}

const monitorUri = (layout: PostgresLayout) =>
  `postgres://autoctl_node@127.0.0.1:${layout.monitorPort}/pg_auto_failover?sslmode=disable`;

/** Creates the monitor's data folder (initdb, the pgautofailover extension). */
export function createMonitor(layout: PostgresLayout): void {
  script(layout, 'monitor', { PGDATA: dataFolder(layout, 'monitor'), PGPORT: String(layout.monitorPort) });
}

/**
 * Creates a data node: the first one's folder by initdb, a later one's as a copy of the primary
 * (pg_basebackup), each registered with the monitor and given the shop's settings file.
 */
export function createDataNode(layout: PostgresLayout, index: number): void {
  script(layout, 'node', {
    PGDATA: dataFolder(layout, nodeName(index)),
    PGPORT: String(layout.nodePorts[index]),
    PGAF_MONITOR_URI: monitorUri(layout),
    PGAF_NODE_NAME: nodeName(index),
    PGAF_DBNAME: layout.dbName,
    PGAF_SHOP_CONF: layout.shopConf,
  });
}

/**
 * Starts a node's pg_autoctl service (it starts and supervises PostgreSQL), detached: the command
 * pg-auto-failover.sh's `run` step runs (`pg_autoctl run`), started directly so its id is the service's.
 */
export function runNode(layout: PostgresLayout, name: string): PartRecord {
  const pgdata = dataFolder(layout, name);
  return launch({
    command: 'pg_autoctl',
    args: ['run', '--pgdata', pgdata],
    env: environment(layout, { PGDATA: pgdata }),
    cwd: layout.dir,
    runAs: layout.runAs,
    log: path.join(layout.dir, 'logs', `${name}.log`),
    match: `pg_autoctl run --pgdata ${pgdata}`,
  });
}

/** The replication settings and the role haproxy's primary check logs in as. */
export function configureFormation(layout: PostgresLayout, primaryPort: number): string {
  const settings = script(layout, 'formation', {
    PGDATA: dataFolder(layout, 'monitor'),
    PGAF_MONITOR_URI: monitorUri(layout),
    PGAF_DATA_NODES: String(layout.nodePorts.length),
  });
  script(layout, 'check-role', {
    PGDATA: dataFolder(layout, 'monitor'),
    PGPORT: String(primaryPort),
    PGHOST: '127.0.0.1',
  });
  return settings;
}

/** Every data node as the monitor sees it now. */
export function nodeStates(layout: PostgresLayout): NodeState[] {
  const output = runToEnd('pg_autoctl', ['show', 'state', '--json', '--pgdata', dataFolder(layout, 'monitor')], {
    env: environment(layout),
    cwd: layout.dir,
    runAs: layout.runAs,
    timeoutMs: 15_000,
  });
  const rows = JSON.parse(output.slice(output.indexOf('['))) as {
    nodename: string;
    nodeport: number;
    current_group_state: string;
    assigned_group_state: string;
  }[];
  return rows.map((row) => ({
    name: row.nodename,
    port: row.nodeport,
    current: row.current_group_state,
    assigned: row.assigned_group_state,
  }));
}

/** Whether the cluster is settled: one primary, every other node its secondary, as the monitor assigned. */
export const settled = (states: NodeState[], count: number) =>
  states.length === count &&
  states.every((s) => s.current === s.assigned) &&
  states.filter((s) => s.current === 'primary').length === 1 &&
  states.filter((s) => s.current === 'secondary').length === count - 1;

/** The primary now, or undefined while there is none (during a failover). */
export function primaryOf(states: NodeState[]): NodeState | undefined {
  return states.find((s) => s.current === 'primary' && s.assigned === 'primary');
}

/**
 * Asks the monitor for a failover (the standby is promoted, the primary demoted and then follows it) and
 * answers when it has begun; the caller waits for `settled`.
 */
export function performFailover(layout: PostgresLayout): void {
  runToEnd('pg_autoctl', ['perform', 'failover', '--pgdata', dataFolder(layout, 'monitor'), '--wait', '0'], {
    env: environment(layout),
    cwd: layout.dir,
    runAs: layout.runAs,
    timeoutMs: 30_000,
  });
}

/**
 * Stops a node's (or the monitor's) pg_autoctl service, which stops its PostgreSQL first; after the
 * grace period, kills what is left and stops the server itself.
 */
export async function stopNode(layout: PostgresLayout, name: string, part: PartRecord | undefined): Promise<void> {
  const pgdata = dataFolder(layout, name);
  if (part && isRunning(part)) {
    try {
      runToEnd('pg_autoctl', ['stop', '--fast', '--pgdata', pgdata], {
        env: environment(layout),
        cwd: layout.dir,
        runAs: layout.runAs,
        timeoutMs: 15_000,
      });
    } catch {
      // no pid file (it never started, or stopped itself): the signal below does it
    }
    await waitUntilGone(part, 30_000);
    await stopPart(part, 'SIGTERM', 5_000);
  }
  // Whatever of its group is left (an orphaned `start/stop postgres` child would start PostgreSQL again).
  await killPartGroup(part);
  stopServerImmediately(layout, name);
}

/** Stops a node's PostgreSQL with no questions asked, when one is still running (after a killed pg_autoctl). */
export function stopServerImmediately(layout: PostgresLayout, name: string): void {
  const pgdata = dataFolder(layout, name);
  if (!fs.existsSync(path.join(pgdata, 'postmaster.pid'))) return;
  try {
    runToEnd(path.join(layout.bin, 'pg_ctl'), ['stop', '-D', pgdata, '-m', 'immediate', '-w', '-t', '30'], {
      env: environment(layout),
      cwd: layout.dir,
      runAs: layout.runAs,
      timeoutMs: 40_000,
    });
  } catch {
    // not running: its pid file was left by a crash
  }
}
