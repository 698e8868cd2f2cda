// Where the local topology's parts listen and what fills deploy/'s templates for them: loopback ports
// from one base (or chosen one by one, as a test does), secrets generated once per bring-up.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ERRORS_FOLDER } from './render';

export interface TopologyPorts {
  /** haproxy's HTTP frontend: the shop. */
  shop: number;
  monitor: number;
  /** The data nodes, node1 first. */
  nodes: number[];
  /** haproxy's TCP frontend to the current primary (pgbouncer's server address). */
  pgPrimary: number;
  pgbouncer: number;
  redis: number;
  /** One per shop instance; the first runs the jobs. */
  instances: number[];
}

/**
 * The default ports from a base: shop +0, monitor +1, nodes +2 and +3, primary +4, pgbouncer +5, Redis
 * +6, the instances +11 onwards.
 * @example portsFrom(7400).shop === 7400
 */
export function portsFrom(base: number, instances = 3): TopologyPorts {
  return {
    shop: base,
    monitor: base + 1,
    nodes: [base + 2, base + 3],
    pgPrimary: base + 4,
    pgbouncer: base + 5,
    redis: base + 6,
    instances: Array.from({ length: instances }, (_, i) => base + 11 + i),
  };
}

/** Every port of a layout, for a check that none is taken. */
export const allPorts = (ports: TopologyPorts) => [
  ports.shop,
  ports.monitor,
  ...ports.nodes,
  ports.pgPrimary,
  ports.pgbouncer,
  ports.redis,
  ...ports.instances,
];

/** The database's name and roles; the roles are `npm run db:roles`'s, pgbouncer_admin only reads pgbouncer's console. */
export const DATABASE = { name: 'shop', owner: 'oripa_owner', shop: 'oripa_shop', pgbouncerAdmin: 'pgbouncer_admin' };

/** Secrets made for one bring-up, kept in the work folder (mode 600) for restarts and the status. */
export interface TopologySecrets {
  ownerPassword: string;
  shopPassword: string;
  pgbouncerAdminPassword: string;
  authSecret: string;
  addressKeys: string;
}

/** Fresh passwords, the auth secret and an address key. @example const secrets = newSecrets() */
export function newSecrets(): TopologySecrets {
  const password = () => crypto.randomBytes(18).toString('base64url');
  return {
    ownerPassword: password(),
    shopPassword: password(),
    pgbouncerAdminPassword: password(),
    authSecret: crypto.randomBytes(32).toString('base64url'),
    addressKeys: `k1:${crypto.randomBytes(32).toString('base64')}`,
  };
}

/**
 * The values deploy/topology.env.example lists, for loopback: what `render` fills the templates with.
 * `shopSettings` may give SMTP_URL and MAIL_FROM (mail is held without them).
 */
export function localValues(options: {
  dir: string;
  ports: TopologyPorts;
  secrets: TopologySecrets;
  demoData: boolean;
  logLevel: string;
  shopSettings: Record<string, string>;
}): Record<string, string> {
  const { dir, ports, secrets } = options;
  const loopback = (port: number) => `127.0.0.1:${port}`;
  return {
    SHOP_BIND: loopback(ports.shop),
    SHOP_ORIGIN: `http://localhost:${ports.shop}`,
    SHOP_HEALTH_PATH: '/api/health/ready',
    SHOP_HEALTH_HOST: `localhost:${ports.shop}`,
    SHOP_INSTANCES: ports.instances.map(loopback).join(','),
    HAPROXY_LOG: 'stderr format raw',
    // Two file descriptors a connection: within the usual limit of a login shell.
    HAPROXY_MAXCONN: '4000',
    HAPROXY_RUN_DIR: path.join(dir, 'run'),
    HAPROXY_ERRORS_DIR: path.join(dir, 'config', ERRORS_FOLDER),
    PG_PRIMARY_BIND: loopback(ports.pgPrimary),
    PG_PRIMARY_HOST: '127.0.0.1',
    PG_PRIMARY_PORT: String(ports.pgPrimary),
    PG_NODES: ports.nodes.map(loopback).join(','),
    PGBOUNCER_LISTEN_ADDR: '127.0.0.1',
    PGBOUNCER_HOST: '127.0.0.1',
    PGBOUNCER_PORT: String(ports.pgbouncer),
    PGBOUNCER_CONFIG_DIR: path.join(dir, 'config'),
    // Its log goes to its stderr, which is the work folder's logs/pgbouncer.log.
    PGBOUNCER_LOGFILE: '',
    PGBOUNCER_PIDFILE: '',
    PGBOUNCER_MAX_CLIENT_CONN: '1000',
    PGBOUNCER_POOL_SIZE: '20',
    PGBOUNCER_SESSION_POOL_SIZE: String(4 * ports.instances.length + 10),
    PG_MAX_CONNECTIONS: '200',
    PG_SHARED_BUFFERS: '64MB',
    PG_WAL_KEEP_SIZE: '256MB',
    DB_NAME: DATABASE.name,
    DB_OWNER_ROLE: DATABASE.owner,
    DB_OWNER_PASSWORD: secrets.ownerPassword,
    DB_SHOP_ROLE: DATABASE.shop,
    DB_SHOP_PASSWORD: secrets.shopPassword,
    REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    AUTH_SECRET: secrets.authSecret,
    ADDRESS_ENCRYPTION_KEYS: secrets.addressKeys,
    SMTP_URL: options.shopSettings.SMTP_URL ?? '',
    MAIL_FROM: options.shopSettings.MAIL_FROM ?? '',
    DEMO_DATA: String(options.demoData),
    LOG_LEVEL: options.logLevel,
  };
}

/** PostgreSQL's programs folder (the newest Debian version, else the one pg_ctl is in), or null. */
export function postgresBinaries(): string | null {
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debian, versions[0], 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? path.dirname(found.stdout.trim()) : null;
}
