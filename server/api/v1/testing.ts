// Test support for /api/v1 (imported by tests only): real services on a fresh migrated database
// with the demo data, members signed up through better-auth, and JSON requests through app.request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { createTestDatabase } from '#tests/database';
import { openDatabase } from '#db/client';
import { loadDemoDataOnce } from '#db/demo/seed';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { capturingMessenger, createShopAuth } from '#modules/identity/server';
import { signUpConfirmed } from '#tests/identity';
import { users } from '#db/schema';
import type { ShopServices } from '#server/services';
import { createMaintenanceCache, type MaintenanceState } from '#modules/shop';

const OPEN_SHOP: MaintenanceState = {
  on: false,
  closure: null,
  customMessage: null,
  message: '',
  endsAt: null,
  changedBy: null,
  changedAt: null,
};

export const TEST_ORIGIN = 'http://shop.test';
const TEST_SECRET = 'api-v1-test-secret-api-v1-test-secret-0123';

/** Config and logger only: enough for operations that never touch the database or a session. */
export function stubServices(): ShopServices {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-api-stub-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    AUTH_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
  });
  const unavailable = new Proxy(
    {},
    {
      get: () => {
        throw new Error('no database in stub services');
      },
    },
  );
  return {
    config,
    logger: createLogger('silent'),
    db: unavailable as never,
    database: unavailable as never,
    auth: unavailable as never,
    buildId: 'test',
    // No database: the shop is open (a stub's operations never reach a module).
    maintenance: { current: async () => OPEN_SHOP, refresh: async () => OPEN_SHOP },
  } as ShopServices;
}

/**
 * Real services on a fresh database (PostgreSQL when it answers, else PGlite) with the demo data.
 * @example const { services, close } = await createApiTestServices('api'); ...; await close()
 */
export async function createApiTestServices(
  label: string,
): Promise<{ services: ShopServices; close(): Promise<void> }> {
  const testDb = await createTestDatabase(label);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    ...(testDb.databaseUrl ? { DATABASE_URL: testDb.databaseUrl } : {}),
    PUBLIC_ORIGIN: TEST_ORIGIN,
    AUTH_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, poolSize: 2 });
  await database.migrate();
  const logger = createLogger('silent');
  await loadDemoDataOnce(database.db, logger, {
    coinLifetimes: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
    prizeDecisionDays: config.PRIZE_DECISION_DAYS,
  });
  const auth = createShopAuth({ db: database.db, config, logger, messenger: capturingMessenger() });
  const services: ShopServices = {
    config,
    database,
    db: database.db,
    auth,
    logger,
    buildId: 'test',
    // Read every time: a test that switches maintenance sees it at once.
    maintenance: createMaintenanceCache(database.db, { maxAgeMs: 0 }),
  } as ShopServices;
  return {
    services,
    async close() {
      await database.close();
      await testDb.drop();
    },
  };
}

let sequence = 0;

/**
 * Signs a new member up through better-auth and answers the session as a Cookie header and as the
 * bearer token (the session cookie's value).
 */
export async function signUpTestMember(services: ShopServices, options: { admin?: boolean } = {}) {
  const email = `api-${Date.now().toString(36)}-${++sequence}@example.jp`;
  const member = await signUpConfirmed(services.auth, services.config.AUTH_SECRET, {
    email,
    password: 'password-1234',
    name: `テスト会員${sequence}`,
  });
  const user = { id: member.id };
  const session = member.cookie;
  const token = member.rawToken;
  if (options.admin) await services.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  /** cookie: the Cookie header; bearer: the signed cookie value; rawToken: the unsigned session token. */
  return { id: user.id, email, cookie: session, bearer: session.slice(session.indexOf('=') + 1), rawToken: token };
}

/** A JSON request through app.request, answering status, headers and the parsed body. */
export async function requestJson(
  app: Hono<any>,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.request(path, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
