// The start-up warm-up: which image addresses a page names, one at a time, one log line, never a throw.
import { describe, it, expect } from 'vitest';
import { imageUrlsIn, warmImageCache, WARM_ACCEPTS } from './warm';

const html = `<html><body>
<img srcset="/_img?src=%2Fdemo%2Fa.svg&amp;w=1200&amp;q=75 2x, /_img?src=%2Fdemo%2Fa.svg&amp;w=640&amp;q=75 1x" src="/_img?src=%2Fdemo%2Fa.svg&amp;w=640&amp;q=75">
<img srcset="/_img?src=%2Fb.png&amp;w=3840&amp;q=75 3840w, /_img?src=%2Fb.png&amp;w=2048&amp;q=75 2048w">
</body></html>`;

function recordingLogger() {
  const lines: Array<{ level: string; msg?: string; obj: object }> = [];
  return {
    lines,
    info: (obj: object, msg?: string) => lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg?: string) => lines.push({ level: 'warn', obj, msg }),
  };
}

describe('imageUrlsIn', () => {
  it('finds every /_img address once, smallest width first, without 4K widths', () => {
    expect(imageUrlsIn(html)).toEqual([
      '/_img?src=%2Fdemo%2Fa.svg&w=640&q=75',
      '/_img?src=%2Fdemo%2Fa.svg&w=1200&q=75',
      '/_img?src=%2Fb.png&w=2048&q=75',
    ]);
  });
});

describe('warmImageCache', () => {
  it('requests each image in each browser format, one at a time, and logs one line', async () => {
    const requests: Array<{ url: string; accept: string | null }> = [];
    let running = 0;
    let most = 0;
    const logger = recordingLogger();
    const result = await warmImageCache({
      paths: ['/'],
      origin: 'http://shop.test',
      concurrency: 1,
      logger,
      fetch: () => new Response(html, { headers: { 'content-type': 'text/html' } }),
      fetchImage: async (request) => {
        running++;
        most = Math.max(most, running);
        requests.push({ url: request.url, accept: request.headers.get('accept') });
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        return new Response(new Uint8Array(8), { headers: { 'content-type': 'image/avif' } });
      },
    });
    expect(result).toMatchObject({ images: 6, failed: 0 });
    expect(most).toBe(1);
    expect(requests).toHaveLength(3 * WARM_ACCEPTS.length);
    expect(requests[0]).toEqual({
      url: 'http://shop.test/_img?src=%2Fdemo%2Fa.svg&w=640&q=75',
      accept: WARM_ACCEPTS[0],
    });
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: 'info', obj: { images: 6, failed: 0 } });
  });

  it('never throws: a failing page render is logged and the warm-up ends', async () => {
    const logger = recordingLogger();
    const result = await warmImageCache({
      paths: ['/'],
      origin: 'http://shop.test',
      logger,
      fetch: () => Promise.reject(new Error('database closed')),
    });
    expect(result.images).toBe(0);
    expect(logger.lines.map((line) => line.level)).toEqual(['warn', 'info']);
  });

  it('stops when the shop stops', async () => {
    const controller = new AbortController();
    controller.abort();
    const logger = recordingLogger();
    let imageRequests = 0;
    await warmImageCache({
      paths: ['/'],
      origin: 'http://shop.test',
      logger,
      signal: controller.signal,
      fetch: () => new Response(html),
      fetchImage: () => {
        imageRequests++;
        return new Response('');
      },
    });
    expect(imageRequests).toBe(0);
    expect(logger.lines).toHaveLength(0);
  });
});
