// The operators' command line never needs the shop stopped (docs/decisions/020): with a real server
// process on the embedded database, `npm run shop` runs through it (files in and out included), the
// endpoint answers 404 to a wrong token, a proxy or another machine, and with the server stopped the
// command line opens the database itself; a file left by a killed process is ignored, and a server
// does not start while a command line holds the database. Needs a build (`npm run build`).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '#tests/ports';
import { scaledTimeout } from '#tests/settings';
import { openDatabase } from '#db/client';
import { ensureGenre } from '#tests/fixtures';
import { listAuditEntries } from '#modules/admin';
import { getBalance } from '#modules/wallet';
import { OPERATOR_FILE, type OperatorFile } from '#server/operator-file';
import { OPERATOR_COMMANDS_PATH, OPERATOR_TOKEN_HEADER } from '#server/operator-route';

const root = path.resolve(import.meta.dirname, '..', '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-operator-'));
const operatorFile = path.join(dataDir, OPERATOR_FILE);
let port = 0;
let server: ChildProcess | null = null;
let serverLog = '';

/** The environment both the server and the command line read: the embedded database in dataDir. */
const environment = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TZ: process.env.TZ,
  LANG: process.env.LANG,
  NODE_ENV: 'production',
  HOST: '0.0.0.0',
  PORT: String(port),
  PUBLIC_ORIGIN: `http://localhost:${port}`,
  DATA_DIR: dataDir,
  AUTH_SECRET: 'operator-secret-operator-secret-operator-0123456789',
  LOG_LEVEL: 'warn',
  DEMO_DATA: 'false',
  JOBS_ENABLED: 'false',
  IMAGE_WARM_UP: 'false',
  // A lone shop with no load balancer to wait for: SIGTERM stops it at once (decision 072).
  DRAIN_DELAY_SECONDS: '0',
});

/** tsx's loader by its file, so that the command line can run from any folder. */
const tsxLoader = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** `npm run shop -- …` as the operator runs it (tsx), from `cwd`. */
function shop(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', tsxLoader, path.join(root, 'scripts/shop/index.ts'), ...args],
      { cwd, env: environment() },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the built shop on dataDir as `npm start` does (the compiled server, docs/decisions/047) and
 * waits for its health (and its operator file's port).
 */
async function startServer(): Promise<void> {
  serverLog = '';
  const child = spawn(process.execPath, ['build/server-runtime/start.js'], { cwd: root, env: environment() });
  child.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  server = child;
  const deadline = Date.now() + scaledTimeout(90_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the shop exited (${child.exitCode}):\n${serverLog}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the shop was not healthy in time:\n${serverLog}`);
}

/** SIGTERM, as an operator stops it; waits until it has gone. */
async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A pid that certainly ran and has gone. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

let member: { id: string; token: string };

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'build', 'server', 'index.js')))
    throw new Error('No build: run `npm run build` first.');
  port = await freePort();
  // The example pack's genre, written before the shop holds the database.
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    await ensureGenre(database.db, 'pokemon');
  } finally {
    await database.close();
  }
  await startServer();
}, scaledTimeout(120_000));

afterAll(async () => {
  await stopServer();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, scaledTimeout(60_000));

describe('npm run shop while the shop runs on the embedded database', { timeout: scaledTimeout(180_000) }, () => {
  it('the running shop names itself in DATA_DIR/operator.json, readable by its user only', () => {
    const held = JSON.parse(fs.readFileSync(operatorFile, 'utf8')) as OperatorFile;
    expect(held).toMatchObject({ holder: 'server', pid: server!.pid, port });
    expect(held.token.length).toBeGreaterThanOrEqual(40);
    if (process.platform !== 'win32') expect(fs.statSync(operatorFile).mode & 0o777).toBe(0o600);
  });

  it('coins:grant goes through the server, which sees the new balance at once', async () => {
    const created = await shop(['members:create', '--count', '1', '--prefix', 'operator']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const [{ members }] = lines(created.stdout) as [{ members: { id: string; token: string }[] }];
    member = members[0]!;
    const granted = await shop(['coins:grant', '--member', member.id, '--amount', '300', '--reason', 'お詫び']);
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(lines(granted.stdout)[0]).toMatchObject({ member: member.id, amount: 300, free: 300 });
    const wallet = await fetch(`http://127.0.0.1:${port}/api/v1/me/wallet`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(wallet.status).toBe(200);
    expect(await wallet.json()).toMatchObject({ free: 300, paid: 0 });
  });

  it('refusals come back with their exit code and Japanese message', async () => {
    const refused = await shop(['coins:grant', '--member', 'nobody@example.invalid', '--amount', '5', '--reason', 'x']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('エラー: 会員 nobody@example.invalid が見つかりません。');
    expect(refused.stderr).toContain('使い方: npm run shop -- <command> [options]');
    expect(refused.stdout).toBe('');
  });

  it("reads the operator's input file and writes the output file where the operator runs it", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-operator-files-'));
    try {
      fs.copyFileSync(path.join(root, 'examples', 'pack.json'), path.join(folder, 'pack.json'));
      expect((await shop(['stock:receive', '--pack', 'pack.json'], folder)).code).toBe(0);
      const created = await shop(['pack:create', 'pack.json', '--publish'], folder);
      expect(created.stderr).toBe('');
      expect(lines(created.stdout).map((l) => Object.keys(l)[0])).toEqual(['created', 'published']);
      expect((await shop(['pack:end', 'example-pokemon-001'], folder)).code).toBe(0);
      const revealed = await shop(['pack:reveal', 'example-pokemon-001', '--out', 'reveal.json'], folder);
      expect(revealed.stderr).toBe('');
      expect(revealed.code).toBe(0);
      const reveal = JSON.parse(fs.readFileSync(path.join(folder, 'reveal.json'), 'utf8')) as { gachaId?: string };
      expect(JSON.stringify(reveal)).toContain('example-pokemon-001');
      const missing = await shop(['pack:create', 'no-such.json'], folder);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no-such.json を読めません');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers 404 to a wrong or missing token, through a proxy, to another host name and from another machine', async () => {
    const { token } = JSON.parse(fs.readFileSync(operatorFile, 'utf8')) as OperatorFile;
    const body = JSON.stringify({ argv: ['coins:grant', '--member', member.id, '--amount', '999', '--reason', 'x'] });
    const post = (host: string, headers: Record<string, string>) =>
      fetch(`http://${host}:${port}${OPERATOR_COMMANDS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const refusals: [string, Record<string, string>][] = [
      ['127.0.0.1', { [OPERATOR_TOKEN_HEADER]: `${token}x` }],
      ['127.0.0.1', { [OPERATOR_TOKEN_HEADER]: token.slice(0, 10) }],
      ['127.0.0.1', {}],
      ['127.0.0.1', { [OPERATOR_TOKEN_HEADER]: token, 'x-forwarded-for': '127.0.0.1' }],
      ['127.0.0.1', { [OPERATOR_TOKEN_HEADER]: token, forwarded: 'for=127.0.0.1' }],
    ];
    for (const [host, headers] of refusals) {
      const response = await post(host, headers);
      expect(response.status, JSON.stringify(headers)).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    // Another machine: this machine's own non-loopback address reaches the server as a remote peer.
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (external) {
      const response = await post(external, { [OPERATOR_TOKEN_HEADER]: token });
      expect(response.status).toBe(404);
    } else console.warn('no non-loopback address on this machine: the remote-peer case is not tried');
    const get = await fetch(`http://127.0.0.1:${port}${OPERATOR_COMMANDS_PATH}`, {
      headers: { [OPERATOR_TOKEN_HEADER]: token },
    });
    expect(get.status).toBe(404);
    const wallet = await fetch(`http://127.0.0.1:${port}/api/v1/me/wallet`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(await wallet.json()).toMatchObject({ free: 300 });
  });

  it('refuses with what to do when the named server does not answer', async () => {
    await stopServer();
    expect(fs.existsSync(operatorFile)).toBe(false);
    // A live process (this test) named as a server on a port where nothing listens.
    const silent: OperatorFile = {
      holder: 'server',
      pid: process.pid,
      port: await freePort(),
      token: 'x'.repeat(43),
      nonce: 'test',
      startedAt: new Date().toISOString(),
    };
    fs.writeFileSync(operatorFile, JSON.stringify(silent), { mode: 0o600 });
    try {
      const refused = await shop(['coins:grant', '--member', member.id, '--amount', '5', '--reason', 'x']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('応答がありません');
      expect(refused.stderr).toContain(`${operatorFile} を削除してから`);
    } finally {
      fs.rmSync(operatorFile, { force: true });
    }
  });

  it('with the server stopped, the command line opens the database itself, and ignores a file left by a killed process', async () => {
    const direct = await shop(['coins:grant', '--member', member.id, '--amount', '100', '--reason', '直接']);
    expect(direct.stderr).toBe('');
    expect(direct.code).toBe(0);
    expect(lines(direct.stdout)[0]).toMatchObject({ free: 400 });
    expect(fs.existsSync(operatorFile)).toBe(false);

    for (const holder of ['server', 'command-line'] as const) {
      const gone: OperatorFile = {
        holder,
        pid: await deadPid(),
        port: holder === 'server' ? await freePort() : null,
        token: 'y'.repeat(43),
        nonce: 'gone',
        startedAt: new Date().toISOString(),
      };
      fs.writeFileSync(operatorFile, JSON.stringify(gone), { mode: 0o600 });
      const stale = await shop(['coins:grant', '--member', member.id, '--amount', '1', '--reason', holder]);
      expect(stale.stderr, holder).toBe('');
      expect(stale.code, holder).toBe(0);
      expect(fs.existsSync(operatorFile), holder).toBe(false);
    }
  });

  it('a server does not start while a command line holds the database', async () => {
    const holding: OperatorFile = {
      holder: 'command-line',
      pid: process.pid,
      port: null,
      token: '',
      nonce: 'holding',
      startedAt: new Date().toISOString(),
    };
    fs.writeFileSync(operatorFile, JSON.stringify(holding), { mode: 0o600 });
    try {
      await expect(startServer()).rejects.toThrow(/運用コマンド（npm run shop, pid \d+）が使っています/);
      expect(server!.exitCode).toBe(1);
      expect(JSON.parse(fs.readFileSync(operatorFile, 'utf8'))).toMatchObject({ nonce: 'holding' });
    } finally {
      fs.rmSync(operatorFile, { force: true });
      server = null;
    }
  });

  it('every change was audited, through the server with its request id and address', async () => {
    const database = await openDatabase({ dataDir });
    try {
      expect(await getBalance(database.db, member.id)).toMatchObject({ free: 402, paid: 0 });
      const { entries } = await listAuditEntries(database.db, { targetId: member.id, action: 'coins.grant' }, 10);
      expect(entries).toHaveLength(4);
      const [throughShop] = entries.slice(-1);
      expect(throughShop).toMatchObject({ actorId: null, after: { amount: 300 } });
      expect(throughShop!.actorLabel).toMatch(/^cli:/);
      expect(throughShop!.requestId).toBeTruthy();
      expect(['127.0.0.1', '::ffff:127.0.0.1', '::1']).toContain(throughShop!.address);
      expect(entries[0]!.requestId).toBeNull();
    } finally {
      await database.close();
    }
  });
});
