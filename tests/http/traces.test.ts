// OpenTelemetry traces (decision 072) on a shop of its own that sends them to a small OTLP/HTTP receiver
// started here: a request's span arrives with its route pattern and status, and the database statement it
// made arrives as its child, named by kind and table, with no value of the request in either. Without
// an endpoint nothing of OpenTelemetry is in the server's start-up code: the built runtime imports it
// only from a chunk of its own, loaded with import() when the endpoint is set.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startOwnShop, type OwnShop } from '#tests/own-shop';
import { freePort } from '#tests/ports';
import { scaledTimeout } from '#tests/settings';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const received: { path: string; spans: OtlpSpan[]; serviceName?: string }[] = [];
let receiver: http.Server;
let own: OwnShop;

beforeAll(async () => {
  const port = await freePort();
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = request.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw;
      const message = JSON.parse(body.toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: OtlpSpan['attributes'] };
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const resource of message.resourceSpans)
        received.push({
          path: request.url ?? '',
          spans: resource.scopeSpans.flatMap((scope) => scope.spans),
          serviceName: resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue as string,
        });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  own = await startOwnShop('traces', {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_SERVICE_NAME: 'oripa-shop-test',
  });
});
afterAll(async () => {
  await own?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? (value.stringValue ?? value.intValue) : undefined;
};

describe('traces', () => {
  it("sends a request's span with its route, and the database statement it made as its child", async () => {
    const genre = `pokemon`;
    const response = await fetch(`${own.base}/api/v1/gachas?genreId=${genre}&limit=3`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();

    // The batch goes out every few seconds.
    const spans = () => received.flatMap((batch) => batch.spans);
    await expect
      .poll(() => spans().some((span) => span.name === 'GET /api/v1/gachas'), { timeout: scaledTimeout(30_000) })
      .toBe(true);
    const request = spans().find((span) => span.name === 'GET /api/v1/gachas')!;
    expect(request.kind).toBe(2); // SERVER
    expect(attribute(request, 'http.route')).toBe('/api/v1/gachas');
    expect(Number(attribute(request, 'http.response.status_code'))).toBe(200);
    expect(received.every((batch) => batch.path === '/v1/traces')).toBe(true);
    expect(received[0]!.serviceName).toBe('oripa-shop-test');

    await expect
      .poll(() => spans().filter((span) => span.parentSpanId === request.spanId).length, {
        timeout: scaledTimeout(30_000),
      })
      .toBeGreaterThan(0);
    const children = spans().filter((span) => span.parentSpanId === request.spanId);
    for (const child of children) {
      expect(child.traceId).toBe(request.traceId);
      expect(child.kind).toBe(3); // CLIENT
      expect(attribute(child, 'db.system.name')).toBe('postgresql');
      expect(child.name).toMatch(/^[A-Z]+( [\w.]+)?$/);
    }
    expect(children.some((child) => /^SELECT \w+/.test(child.name))).toBe(true);
    // Never a path, a query string or a statement's values.
    const everything = JSON.stringify(spans());
    expect(everything).not.toContain('genreId=');
    expect(everything).not.toContain('limit=3');
    expect(everything).not.toMatch(/select .* from/i);
  });

  it('continues the trace a load balancer or an app started (traceparent)', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await (
      await fetch(`${own.base}/api/health/live`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } })
    ).arrayBuffer();
    await expect
      .poll(() => received.flatMap((batch) => batch.spans).find((span) => span.traceId === traceId)?.parentSpanId, {
        timeout: scaledTimeout(30_000),
      })
      .toBe('00f067aa0ba902b7');
  });
});

describe('tracing off', () => {
  it('leaves OpenTelemetry out of the start-up code: only a chunk loaded on demand imports it', () => {
    const runtime = path.resolve(import.meta.dirname, '..', '..', 'build', 'server-runtime');
    const files = fs.readdirSync(runtime, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    const importing = files.filter((file) =>
      /from\s*["']@opentelemetry\//.test(fs.readFileSync(path.join(runtime, file), 'utf8')),
    );
    expect(importing).toHaveLength(1);
    const chunk = path.basename(importing[0]!);
    for (const file of files) {
      const text = fs.readFileSync(path.join(runtime, file), 'utf8');
      // Anyone who reaches the tracing chunk does so with import(), never a static import.
      expect(text).not.toMatch(new RegExp(`(?:^|\\n)\\s*import[^(\\n]*["'][^"']*${chunk.replace('.', '\\.')}["']`));
    }
  });
});
