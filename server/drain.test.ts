// Draining, piece by piece: the serving phases only move forward; from SIGTERM on every answer closes
// its connection and, once the instance stopped accepting, a new request is refused whole (503 and
// Retry-After); the HTTP server stops accepting at once and lets a request in flight finish, within its bound.
import http from 'node:http';
import net from 'node:net';
import { describe, it, expect } from 'vitest';
import { Hono } from 'hono';
import { closeServerGently, createServingState, drainingAnswers } from './drain';

describe('serving state', () => {
  it('moves from starting to serving, draining and closing, never back', () => {
    const serving = createServingState();
    expect(serving.phase).toBe('starting');
    serving.ready();
    expect(serving.phase).toBe('serving');
    serving.drain();
    serving.ready();
    expect(serving.phase).toBe('draining');
    serving.close();
    serving.drain();
    expect(serving.phase).toBe('closing');
  });
});

describe('answers while draining', () => {
  const appIn = (serving: ReturnType<typeof createServingState>) => {
    const app = new Hono();
    app.use(
      drainingAnswers(serving, (c) => c.json({ error: { code: 'SERVICE_BUSY', message: '混み合っています。' } }, 503)),
    );
    app.get('/api/thing', (c) => c.json({ ok: true }));
    return app;
  };

  it('keeps connections open while serving, and closes each one from SIGTERM on', async () => {
    const serving = createServingState();
    serving.ready();
    const app = appIn(serving);
    expect((await app.request('/api/thing')).headers.get('connection')).toBeNull();
    serving.drain();
    const draining = await app.request('/api/thing');
    expect(draining.status).toBe(200);
    expect(draining.headers.get('connection')).toBe('close');
  });

  it('refuses a request whole once the instance stopped accepting: 503, Retry-After, the shop’s body', async () => {
    const serving = createServingState();
    serving.ready();
    serving.close();
    const refused = await appIn(serving).request('/api/thing');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({ error: { code: 'SERVICE_BUSY', message: '混み合っています。' } });
  });
});

describe('closing the HTTP server gently', () => {
  /** A server whose every request waits until `release` is called. */
  async function slowServer() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer((_request, response) => {
      arrived();
      void released.then(() => response.end('done'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    return { server, port, release, inFlight };
  }

  const get = (port: number) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/' }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });

  const connect = (port: number) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve('connected')));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });

  it('refuses new connections at once and lets the request in flight finish', async () => {
    const { server, port, release, inFlight } = await slowServer();
    const answer = get(port);
    await inFlight;
    const closing = closeServerGently(server, 60_000);
    expect(await connect(port)).toBe('ECONNREFUSED');
    release();
    expect(await answer).toEqual({ status: 200, body: 'done' });
    expect(await closing).toBe(true);
  });

  it('closes what is still in flight when its bound has passed, and says so', async () => {
    const { server, port, release, inFlight } = await slowServer();
    const answer = get(port).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await inFlight;
    expect(await closeServerGently(server, 1)).toBe(false);
    expect(await answer).toBe('ECONNRESET');
    release();
  });
});
