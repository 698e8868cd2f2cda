// The process's own settings: where it listens, its database and data folder, its address, logs, jobs,
// and the per-instance caches and memory of the HTTP server.
import { z } from 'zod';
import { booleanFlag, declareSettings } from '#modules/kernel';

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://');

export const processSettings = declareSettings({
  title: 'The process, the database and the HTTP server',
  shape: {
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: postgresUrl.optional(),
    /** PostgreSQL: migrate as this URL's role (the owner), serve as DATABASE_URL's (`npm run db:roles`, docs/decisions/010). */
    DATABASE_MIGRATION_URL: postgresUrl.optional(),
    /** A streaming replica for the reads that may lag (decision 075); unset reads everything from the primary. */
    DATABASE_REPLICA_URL: postgresUrl.optional(),
    REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0.5).max(300).default(5),
    /**
     * PostgreSQL: LISTEN (live counts, page-cache drops, the outbox nudge) on this URL's connections, which
     * keep their session; for a DATABASE_URL through a transaction-mode pool (docs/decisions/074).
     */
    DATABASE_SESSION_URL: postgresUrl.optional(),
    /** PostgreSQL: a superuser with which the start makes or repairs both roles (docs/decisions/073). */
    DATABASE_ADMIN_URL: postgresUrl.optional(),
    DATA_DIR: z.string().min(1).default('.data'),
    PUBLIC_ORIGIN: z
      .string()
      .url()
      .refine(
        (v) => /^https?:\/\/[^/]+$/.test(v.replace(/\/$/, '')),
        'must be an origin such as https://example.jp (no path)',
      )
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DEMO_DATA: booleanFlag.default(true),
    TRUST_PROXY: booleanFlag.default(false),
    BUILD_POLL_SECONDS: z.coerce.number().int().min(10).max(86400).default(300),
    JOBS_ENABLED: booleanFlag.default(true),
    // Visitors' public pages (home, genres, packs, notices) are rendered once per this many seconds per
    // instance; 0 renders every request (decision 048).
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    /** Encode the home page's images into the cache after start (off in test shops: it competes for the cores). */
    IMAGE_WARM_UP: booleanFlag.default(true),
    /**
     * Give the memory native code has freed (image encoding above all) back to the system this often, and
     * a moment after start-up and after image encodes; 0 only then, -1 never (decision 047).
     */
    MEMORY_TRIM_SECONDS: z.coerce.number().int().min(-1).max(3600).default(60),
    IMAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(1024),
  },
  docs: {
    NODE_ENV: { meaning: '`development` is set by `npm run dev`' },
    PORT: { meaning: 'HTTP port' },
    HOST: { meaning: 'interface to listen on' },
    DATABASE_URL: {
      meaning: '`postgres://…` to run on PostgreSQL; unset uses embedded PGlite in `DATA_DIR/pglite`',
    },
    DATABASE_MIGRATION_URL: {
      default: '(unset: migrate as `DATABASE_URL`)',
      meaning:
        "PostgreSQL only: run the migrations and the modules' SQL as this URL's role (the owner), while serving as " +
        '`DATABASE_URL`\'s (the shop role); see docs/operators.md "Database roles". Not applicable to the embedded database',
    },
    DATABASE_REPLICA_URL: {
      default: '(unset: every read on the primary)',
      meaning:
        'PostgreSQL only: a streaming replica (as the shop role) that the catalogue pages, the rankings and the reveal ' +
        "files may read while it is close enough; the draw, the wallet, the prize box and a browser's reads after its " +
        'own write stay on the primary (decision 075)',
    },
    REPLICA_MAX_LAG_SECONDS: {
      meaning:
        'a replica further behind than this is not read (every read goes to the primary until it catches up); its lag ' +
        'is in `/api/health`',
    },
    DATABASE_SESSION_URL: {
      default: '(unset: listen on `DATABASE_URL`)',
      meaning:
        'PostgreSQL only: the connections that LISTEN for live counts, page-cache drops and the outbox nudge, as the ' +
        'shop role, on a URL whose connections keep their session (the primary itself, or a session-mode pool such as ' +
        "pgbouncer's `shop_session` in `deploy/`). Needed when `DATABASE_URL` goes through a transaction-mode pool, " +
        'where a LISTEN never hears anything; see docs/deploy.md (decision 074)',
    },
    DATABASE_ADMIN_URL: {
      default: '(unset: the roles are made by `npm run db:roles`)',
      meaning:
        "PostgreSQL only: a superuser's URL on the shop's database. At each start, before migrating, the shop makes or " +
        'repairs the owner role and the shop role (names and passwords from `DATABASE_MIGRATION_URL` and `DATABASE_URL`) ' +
        'and their rights, as `npm run db:roles` does, under the migration lock; what it changed is logged and audited. ' +
        'So a database restored into a fresh cluster starts with no manual step (docs/backups.md, decision 073). ' +
        'Needs both role URLs, each with a password of at least 16 characters; used only during the start',
      secret: true,
    },
    DATA_DIR: {
      meaning:
        'embedded database, image cache, uploaded images (`media/`, `inquiries/`) unless `MEDIA_S3_BUCKET` is set, ' +
        'generated local secret, `operator.json` (who holds the embedded database: the running server, for `npm run shop`)',
    },
    PUBLIC_ORIGIN: {
      default: '`http://localhost:$PORT`',
      allowed: 'an origin such as `https://example.jp` (no path)',
      meaning:
        "the shop's public origin (no path): canonical links, cookies, cross-site checks; `https://` turns on HSTS",
    },
    LOG_LEVEL: { meaning: 'pino level' },
    DEMO_DATA: { meaning: 'load demo genres, packs and pages on the first start (recorded, never loaded twice)' },
    TRUST_PROXY: {
      meaning: 'take the client address from `X-Forwarded-For` (behind a load balancer) for rate limits',
    },
    BUILD_POLL_SECONDS: { meaning: 'how often open pages poll `/builds/latest.json` for a newer build' },
    JOBS_ENABLED: {
      meaning:
        'run the background jobs (pg-boss workers and schedules, `server/jobs/`) in this instance; `false` for an ' +
        'instance that only serves pages (benchmarks, extra web instances)',
    },
    PAGE_CACHE_SECONDS: {
      meaning:
        "visitors' public pages (home, genre tops, pack pages, notices) are rendered once per this many seconds per " +
        'instance and shared with every visitor (0 renders every request). Members get the same pages from a second ' +
        "copy per page, the members' shell, with their own coins and bell filled in per answer (never one member's " +
        'values for another; decision 077), and their own pages are never shared; an ' +
        "operator's change in `/admin` or through `npm run shop`, and a pack selling out, drop the copies on every " +
        'instance at once; remaining counts keep arriving live (decision 048)',
    },
    IMAGE_WARM_UP: {
      meaning:
        "after start, encode the home page's images (AVIF, then WebP) into the cache in the background, so the first " +
        'visitor does not wait for them',
    },
    MEMORY_TRIM_SECONDS: {
      meaning:
        'give the memory that native code has freed (image encoding above all) back to the system this often, and two ' +
        "seconds after start-up and after a burst of image encodes (glibc's `malloc_trim` through koffi; Linux with " +
        'glibc only). `0`: only after start-up and encodes; `-1`: never (decision 047)',
    },
    IMAGE_CACHE_MAX_MB: {
      meaning:
        "size cap of the resized-image cache in `DATA_DIR/cache/images` (with this instance's copies of a bucket's " +
        'images, decision 071); the daily clean-up deletes files older than 30 days, then the oldest until under the cap',
    },
  },
  problems: (values) => [
    ...(values.DATABASE_MIGRATION_URL && !values.DATABASE_URL
      ? ['DATABASE_MIGRATION_URL: needs DATABASE_URL (the embedded database has no roles)']
      : []),
    ...(values.DATABASE_REPLICA_URL && !values.DATABASE_URL
      ? ['DATABASE_REPLICA_URL: needs DATABASE_URL (a replica follows a PostgreSQL primary)']
      : []),
    ...(values.DATABASE_SESSION_URL && !values.DATABASE_URL
      ? ['DATABASE_SESSION_URL: needs DATABASE_URL (the embedded database listens in process)']
      : []),
    ...(values.DATABASE_ADMIN_URL ? adminUrlProblems(values) : []),
  ],
});

/** The start makes the roles from the two role URLs: both must be there, differ, and carry their passwords. */
function adminUrlProblems(values: {
  DATABASE_URL?: string;
  DATABASE_MIGRATION_URL?: string;
  DATABASE_ADMIN_URL?: string;
}): string[] {
  if (!values.DATABASE_URL || !values.DATABASE_MIGRATION_URL)
    return ['DATABASE_ADMIN_URL: needs DATABASE_URL (the shop role) and DATABASE_MIGRATION_URL (the owner)'];
  const shop = new URL(values.DATABASE_URL);
  const owner = new URL(values.DATABASE_MIGRATION_URL);
  const admin = new URL(values.DATABASE_ADMIN_URL!);
  const problems: string[] = [];
  if (!shop.username || !owner.username || shop.username === owner.username)
    problems.push('DATABASE_ADMIN_URL: DATABASE_URL and DATABASE_MIGRATION_URL must name two different roles');
  if (decodeURIComponent(shop.password).length < 16 || decodeURIComponent(owner.password).length < 16)
    problems.push(
      'DATABASE_ADMIN_URL: DATABASE_URL and DATABASE_MIGRATION_URL must each carry a password of at least 16 characters (the roles are made with them)',
    );
  if (admin.pathname !== owner.pathname)
    problems.push('DATABASE_ADMIN_URL: must name the same database as DATABASE_MIGRATION_URL');
  return problems;
}
