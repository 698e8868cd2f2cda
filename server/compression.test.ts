// Accept-Encoding negotiation and the dynamic compression middleware (event streams stay untouched).
import { describe, it, expect } from 'vitest';
import zlib from 'node:zlib';
import { once } from 'node:events';
import { Hono } from 'hono';
import { LIVE_BROTLI_WINDOW_BITS, chooseEncoding, compressResponses, isCompressibleType } from './compression';

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
  it("declares a 256 kB window in a live page's brotli stream, not brotli's 4 MB default", async () => {
    const br = Buffer.from(await (await app.request('/page', { headers: { 'accept-encoding': 'br' } })).arrayBuffer());
    expect(brotliWindowBits(br)).toBe(LIVE_BROTLI_WINDOW_BITS);
    expect(LIVE_BROTLI_WINDOW_BITS).toBeLessThanOrEqual(18);
    // The reading of the header itself: brotli's default window is 22 bits.
    expect(brotliWindowBits(zlib.brotliCompressSync(Buffer.from(big)))).toBe(22);
  });
  it('compresses the pieces a page is written in during one turn as one (one flush, not one per piece)', async () => {
    // React writes a page in ~2 kB pieces in one turn: the answer is byte for byte the one-piece page's.
    const page = `<p>${big}</p>`;
    const pieces = new Hono();
    pieces.use(compressResponses());
    pieces.get('/page', () => {
      const bytes = Buffer.from(page);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 2048) controller.enqueue(bytes.subarray(at, at + 2048));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    });
    expect(Buffer.from(page).length / 2048).toBeGreaterThan(8);
    for (const encoding of ['br', 'gzip']) {
      const whole = Buffer.from(
        await (await app.request('/page', { headers: { 'accept-encoding': encoding } })).arrayBuffer(),
      );
      const inPieces = Buffer.from(
        await (await pieces.request('/page', { headers: { 'accept-encoding': encoding } })).arrayBuffer(),
      );
      expect(inPieces.equals(whole), encoding).toBe(true);
    }
  });
  it('still sends a piece written in a later turn at once, in a flush of its own (streamed pages)', async () => {
    let second = () => {};
    const secondWritten = new Promise<void>((resolve) => (second = resolve));
    const streamed = new Hono();
    streamed.use(compressResponses());
    streamed.get('/page', () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(Buffer.from(`<p>${big}</p>`));
          await secondWritten;
          controller.enqueue(Buffer.from('<p>later</p>'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    });
    const response = await streamed.request('/page', { headers: { 'accept-encoding': 'br' } });
    const reader = response.body!.getReader();
    const inflate = zlib.createBrotliDecompress();
    inflate.setEncoding('utf8');
    let text = '';
    inflate.on('data', (chunk: string) => (text += chunk));
    // The first piece decodes before the second is written.
    while (!text.endsWith('</p>')) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      await new Promise<void>((resolve) => inflate.write(value, () => resolve()));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(text).toBe(`<p>${big}</p>`);
    second();
    for (let next = await reader.read(); !next.done; next = await reader.read()) inflate.write(next.value);
    inflate.end();
    await once(inflate, 'end');
    expect(text).toBe(`<p>${big}</p><p>later</p>`);
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

/** The window (WBITS) a brotli stream declares in its first bits (RFC 7932, section 9.1). */
function brotliWindowBits(stream: Buffer): number {
  const bits = stream[0]! | (stream[1]! << 8);
  if ((bits & 1) === 0) return 16;
  const n = (bits >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (bits >> 4) & 7;
  return m === 0 ? 17 : 8 + m;
}
