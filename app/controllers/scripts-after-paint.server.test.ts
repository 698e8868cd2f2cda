import { describe, it, expect } from 'vitest';
import { Readable } from 'node:stream';
import { deferScriptsAfterPaint, scriptsAfterPaint } from './scripts-after-paint.server';

// The shape React Router 7 and React 19 render: hoisted modulepreloads in <head>, the context script,
// then the module script with one static import per route chunk.
const DOCUMENT =
  '<!DOCTYPE html><html lang="ja"><head><meta charSet="utf-8"/><title>星降る夜 | オリパ</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N1"/>' +
  '<link rel="modulepreload" href="/assets/framework-B.js" nonce="N1"/>' +
  '<link rel="modulepreload" href="/assets/root-C.js" nonce="N1"/>' +
  '<link rel="modulepreload" href="/assets/framework-B.js" nonce="N1"/>' +
  '<link nonce="N1" rel="stylesheet" href="/assets/root-D.css"/></head><body><main>全1,000口、ハズレなし。</main>' +
  '<script nonce="N1">window.__reactRouterContext = {};</script>' +
  '<script nonce="N1" type="module" async="">;\n' +
  'import * as route0 from "/assets/root-C.js";\n' +
  'import * as route1 from "/assets/detail-E.js";\n' +
  '  window.__reactRouterManifest = {};\n' +
  'window.__reactRouterRouteModules = {"root":route0,"routes/detail":route1};\n\n' +
  'import("/assets/entry.client-A.js");</script></body></html>';

describe('scripts after the first paint', () => {
  it('takes the modulepreloads out of the HTML and loads the same files, then the routes, after a frame', () => {
    const html = deferScriptsAfterPaint(DOCUMENT);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toMatch(/^import \* as/m);
    // The stylesheet, the text and the module script's own nonce stay.
    expect(html).toContain('<link nonce="N1" rel="stylesheet" href="/assets/root-D.css"/>');
    expect(html).toContain('<main>全1,000口、ハズレなし。</main>');
    expect(html).toContain('<script nonce="N1" type="module" async="">;\nawait new Promise(');
    expect(html).toContain('requestAnimationFrame(() => setTimeout(go, 0))');
    expect(html).toContain(
      'const preloads = ["/assets/entry.client-A.js","/assets/framework-B.js","/assets/root-C.js"];',
    );
    // A few per task: the page yields to the browser between them (not in a hidden tab, which paints nothing).
    expect(html).toContain("if (i > 0 && i % 3 === 0 && document.visibilityState !== 'hidden') await");
    expect(html).toContain(
      'const [route0, route1] = await Promise.all([import("/assets/root-C.js"), import("/assets/detail-E.js")]);',
    );
    // What React Router does with the modules afterwards is untouched.
    expect(html).toContain(
      'window.__reactRouterRouteModules = {"root":route0,"routes/detail":route1};\n\nimport("/assets/entry.client-A.js");</script></body></html>',
    );
  });

  it('leaves a document without React Router’s module script as it is', () => {
    const plain = '<!DOCTYPE html><html><head><link rel="modulepreload" href="/x.js"/></head><body>ok</body></html>';
    expect(deferScriptsAfterPaint(plain)).toBe(plain);
  });

  it('rewrites the same way whatever the chunks, and passes what follows byte for byte', async () => {
    const expected = deferScriptsAfterPaint(DOCUMENT) + '<div hidden id="S:0">後から届く部分</div>';
    const bytes = Buffer.from(DOCUMENT + '<div hidden id="S:0">後から届く部分</div>', 'utf8');
    for (const size of [1, 2, 3, 7, 64, 500, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const out: Buffer[] = [];
      for await (const piece of Readable.from(chunks).pipe(scriptsAfterPaint())) out.push(piece as Buffer);
      expect(Buffer.concat(out).toString('utf8'), `chunks of ${size} bytes`).toBe(expected);
    }
  });

  it('sends a document without the module script unchanged at its end', async () => {
    const plain = Buffer.from('<!DOCTYPE html><html><body>メンテナンス中</body></html>', 'utf8');
    const out: Buffer[] = [];
    for await (const piece of Readable.from([plain.subarray(0, 40), plain.subarray(40)]).pipe(scriptsAfterPaint()))
      out.push(piece as Buffer);
    expect(Buffer.concat(out).equals(plain)).toBe(true);
  });
});
