// Accept-Encoding negotiation and the dynamic compression middleware (event streams stay untouched).
import { describe, it, expect } from 'vitest';
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { chooseEncoding, compressResponses, isCompressibleType } from './compression';

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, honouring q-values and the wildcard', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('gzip, br', ['gzip'])).toBe('gzip');
  });
});

describe('isCompressibleType', () => {
  it('accepts text, scripts, JSON and SVG; refuses event streams and binary images', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'text/css',
      'text/javascript',
      'application/json',
      'image/svg+xml',
      'application/xml',
    ]) {
      expect(isCompressibleType(type)).toBe(true);
    }
    for (const type of [
      'text/event-stream',
      'image/avif',
      'image/png',
      'application/octet-stream',
      'font/woff2',
      null,
    ]) {
      expect(isCompressibleType(type)).toBe(false);
    }
  });
});

describe('compressResponses', () => {
  const big = 'オリパ'.repeat(2000);
  const app = new Hono();
  app.use(compressResponses());
  app.get('/page', (c) => c.html(`<p>${big}</p>`));
  app.get('/small', (c) => c.body('{"ok":true}', 200, { 'Content-Type': 'application/json', 'Content-Length': '11' }));
  app.get('/events', (c) => c.body(`data: ${big}\n\n`, 200, { 'Content-Type': 'text/event-stream' }));
  app.post('/refused', (c) => c.json({ error: { message: big } }, 413));
  app.get('/raw', (c) => c.body(big, 200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-transform' }));

  it('answers brotli or gzip that decode to the same page, with Vary', async () => {
    const br = await app.request('/page', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-length')).toBeNull();
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(`<p>${big}</p>`);
    const gz = await app.request('/page', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(`<p>${big}</p>`);
  });
  it('sends identity when nothing is accepted, still with Vary', async () => {
    const plain = await app.request('/page');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await plain.text()).toBe(`<p>${big}</p>`);
  });
  it('sends a refused POST as it is (its body may be unread)', async () => {
    const response = await app.request('/refused', { method: 'POST', headers: { 'accept-encoding': 'br' }, body: 'x' });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-encoding')).toBeNull();
  });
  it('leaves event streams, small bodies and no-transform responses alone', async () => {
    for (const path of ['/events', '/small', '/raw']) {
      const response = await app.request(path, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.headers.get('content-encoding'), path).toBeNull();
      expect((await response.text()).length, path).toBeGreaterThan(0);
    }
  });
});
