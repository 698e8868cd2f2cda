// A real S3-protocol server for the media store's tests (decision 071): s3rver in a child process, on a
// free port, with a temporary folder, and a fault proxy to put in front of it (refused connections,
// requests that are never answered, 500s). The SDK under test is the real one, talking HTTP.
//
// s3rver runs in a child with Node's legacy OpenSSL provider: it signs its ListObjectsV2 continuation
// tokens with DES, which OpenSSL 3 (Node ≥ 17) refuses without it, so any listing longer than one page
// failed with a 500. Everything else works with the current SDK (path-style, checksums WHEN_REQUIRED).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { scaledTimeout } from './settings';

/** s3rver's own keys: it checks every request's signature against them. */
export const TEST_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface TestS3 {
  /** http://127.0.0.1:<port>: the server itself. */
  endpoint: string;
  bucket: string;
  /** s3rver's folder: what it stores, for a test that looks behind the API. */
  dir: string;
  /** The shop's settings for this server (through `endpoint`, or another one such as a fault proxy's). */
  settings(endpoint?: string, extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

const CHILD = `
import S3rver from 's3rver';
const server = new S3rver({
  port: Number(process.env.S3_PORT), address: '127.0.0.1', directory: process.env.S3_DIR, silent: true,
  configureBuckets: [{ name: process.env.S3_BUCKET }],
});
await server.run();
process.stdout.write('ready\\n');
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
`;

/**
 * Starts s3rver with one empty bucket.
 * @example const s3 = await startTestS3(); afterAll(() => s3.stop()); const own = await startOwnShop('media', s3.settings())
 */
export async function startTestS3(bucket = 'oripa-media'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--input-type=module', '-e', CHILD], {
    cwd: path.resolve(import.meta.dirname, '..', '..'),
    env: { ...process.env, S3_PORT: String(port), S3_DIR: dir, S3_BUCKET: bucket },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${stderr}`)), scaledTimeout(30_000));
      child.stdout!.on('data', (chunk: Buffer) => {
        if (!chunk.toString().includes('ready')) return;
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited (${code}): ${stderr}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    dir,
    settings: (through = endpoint, extra = {}) => ({
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: through,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
      MEDIA_S3_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
      ...extra,
    }),
    stop: () => stopChild(child).finally(() => fs.rmSync(dir, { recursive: true, force: true })),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), scaledTimeout(5_000));
  await exited;
  clearTimeout(timer);
}

/**
 * What the fault proxy does with each request: `pass` forwards it; `refuse` stops listening (a new
 * connection is refused, an open one cut: the store is unreachable); `hang` takes the request and never
 * answers (slower than any time limit); `error500` answers S3's InternalError.
 */
export type FaultMode = 'pass' | 'refuse' | 'hang' | 'error500';

export interface FaultProxy {
  /** http://127.0.0.1:<port>: point the store here. */
  endpoint: string;
  mode(next: FaultMode): Promise<void>;
  /** Requests that reached the proxy since it started (the SDK's retries count). */
  readonly requests: number;
  close(): Promise<void>;
}

const INTERNAL_ERROR =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code>' +
  '<Message>We encountered an internal error. Please try again.</Message></Error>';

/**
 * An HTTP proxy in front of `target` whose behaviour a test switches. The request is forwarded as it
 * came (its Host header too, which the signature covers).
 * @example const proxy = await startFaultProxy(s3.endpoint); await proxy.mode('error500')
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const port = await freePort();
  let current: FaultMode = 'pass';
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    requests++;
    if (current === 'hang') return; // read nothing, answer nothing: the client's deadline ends it
    if (current === 'error500') {
      request.resume();
      request.on('end', () => {
        response.writeHead(500, {
          'Content-Type': 'application/xml',
          'Content-Length': Buffer.byteLength(INTERNAL_ERROR),
        });
        response.end(INTERNAL_ERROR);
      });
      return;
    }
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => (server.off('error', reject), resolve()));
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  await listen();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    async mode(next) {
      if (next === current) return;
      // Connections a hanging or failing mode held are cut, so the next mode meets fresh ones.
      for (const socket of sockets) socket.destroy();
      if (next === 'refuse') await stopListening();
      else if (current === 'refuse') await listen();
      current = next;
    },
    async close() {
      if (current !== 'refuse') await stopListening();
    },
  };
}
