// The test databases' choice of engine (tests/support/database.ts, decision 004), without a database:
// a TEST_DATABASE_URL that does not answer fails the run loudly instead of passing it on PGlite (where
// the races of the db tests would be skipped), and TEST_DATABASE=pglite answers PGlite without asking.
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '#tests/database';

/** A local port that takes each connection and hangs up at once: PostgreSQL not answering there. */
let silent: net.Server;
let silentUrl: string;

beforeAll(async () => {
  silent = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  silentUrl = `postgres://postgres:secret-password@127.0.0.1:${port}/postgres`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('createTestDatabase', () => {
  it('fails, naming the URL without its password, when TEST_DATABASE_URL is set and does not answer', async () => {
    vi.stubEnv('TEST_DATABASE', '');
    vi.stubEnv('TEST_DATABASE_URL', silentUrl);
    const made = createTestDatabase('unreachable');
    await expect(made).rejects.toThrow(/TEST_DATABASE_URL is set .* but PostgreSQL does not answer there/);
    const message = await made.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toContain(`127.0.0.1:${(silent.address() as net.AddressInfo).port}`);
    expect(message).not.toContain('secret-password');
  });

  it('opens PGlite without asking PostgreSQL when TEST_DATABASE=pglite, even with a URL set', async () => {
    vi.stubEnv('TEST_DATABASE', 'pglite');
    vi.stubEnv('TEST_DATABASE_URL', silentUrl);
    const made = await createTestDatabase('forced-pglite');
    try {
      expect(made.engine).toBe('pglite');
      expect(made.databaseUrl).toBeUndefined();
      expect(fs.existsSync(made.dataDir)).toBe(true);
    } finally {
      await made.drop();
    }
    expect(fs.existsSync(made.dataDir)).toBe(false);
  });
});
