// Start-up: a bad setting stops the shop with a message that names it (exit code 1).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: '/tmp/oripa-startup-test',
      ...env,
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stderr: result.stderr };
}

describe('start-up settings', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT="abc"'],
    [{ DATABASE_URL: 'mysql://root@localhost/shop' }, 'DATABASE_URL="mysql://root@localhost/shop"'],
    [{ PUBLIC_ORIGIN: 'shop.example.jp' }, 'PUBLIC_ORIGIN="shop.example.jp"'],
  ])('refuses %o and names the setting', (env, named) => {
    const { code, stderr } = start(env);
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid settings in the environment');
    expect(stderr).toContain(named);
  });
});
