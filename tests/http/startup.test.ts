// Start-up: a bad setting stops the shop with a message that names it (exit code 1).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The TypeScript sources through tsx (`npm run dev`, the storm's instances) and the compiled server (`npm start`). */
const COMMANDS = {
  sources: ['--import', 'tsx', 'server/start.ts'],
  compiled: ['build/server-runtime/start.js'],
} as const;

function start(command: keyof typeof COMMANDS, env: Record<string, string>) {
  const result = spawnSync(process.execPath, COMMANDS[command], {
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
    ['sources', { PORT: 'abc' }, 'PORT="abc"'],
    ['sources', { DATABASE_URL: 'mysql://root@localhost/shop' }, 'DATABASE_URL="mysql://root@localhost/shop"'],
    ['sources', { PUBLIC_ORIGIN: 'shop.example.jp' }, 'PUBLIC_ORIGIN="shop.example.jp"'],
    ['compiled', { PORT: 'abc' }, 'PORT="abc"'],
    ['compiled', { PUBLIC_ORIGIN: 'shop.example.jp' }, 'PUBLIC_ORIGIN="shop.example.jp"'],
  ] as const)('%s: refuses %o and names the setting', (command, env, named) => {
    const { code, stderr } = start(command, env);
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid settings in the environment');
    expect(stderr).toContain(named);
  });
});
