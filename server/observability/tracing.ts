// OpenTelemetry traces (decision 072), loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set: main imports
// this file with `import()` then, so a shop without it loads none of these packages and pays nothing.
// The server is bundled for production, so nothing is patched in: the request span is a Hono middleware
// and each database statement's span comes from the database observer (db/observe.ts). The spans are
// the shop's own (a provider per shop, no global registration), and a statement's span is a child of the
// request span that is running, found through an AsyncLocalStorage; a statement outside a request (a job,
// pg-boss polling) makes none.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Context, type Span } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { DatabaseObserver } from '#db/client';
import { routeLabel } from './route-label';
import { statementSummary } from './statement';

export interface ShopTracing {
  /** The request span around everything after it (the first middleware). */
  middleware: MiddlewareHandler;
  /** Statement spans under the running request span. */
  statement: NonNullable<DatabaseObserver['statement']>;
  /** Sends what is still buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * @example const tracing = await startTracing({ endpoint: 'http://127.0.0.1:4318', serviceName: 'oripa-shop' })
 */
export async function startTracing(options: { endpoint: string; serviceName: string }): Promise<ShopTracing> {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('oripa-shop');
  const requestSpan = new AsyncLocalStorage<Span>();

  const middleware: MiddlewareHandler = async (c, next) => {
    const method = c.req.method;
    const span = tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
      remoteParent(c.req.header('traceparent')),
    );
    try {
      await requestSpan.run(span, next);
    } finally {
      // The route pattern, never the path or its query (a path may name a member's thing, a query a token).
      const route = routeLabel(c);
      span.updateName(`${method} ${route}`);
      span.setAttribute(ATTR_HTTP_ROUTE, route);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, c.res.status);
      span.setAttribute('shop.request_id', String(c.get('requestId' as never) ?? ''));
      if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };

  const statement: ShopTracing['statement'] = (text) => {
    const parent = requestSpan.getStore();
    if (!parent) return undefined;
    const { operation, target } = statementSummary(text);
    const span = tracer.startSpan(
      target ? `${operation} ${target}` : operation,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
          [ATTR_DB_OPERATION_NAME]: operation,
          ...(target ? { [ATTR_DB_COLLECTION_NAME]: target } : {}),
        },
      },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
    return (error) => {
      // The kind of failure only: a database error's message can quote the values it refused.
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? 'error' });
      span.end();
    };
  };

  return { middleware, statement, shutdown: () => provider.shutdown() };
}

/** The caller's trace (W3C `traceparent`, as a load balancer or an app sends it), or a new trace. */
function remoteParent(header: string | undefined): Context {
  const match = header ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(header.trim()) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}
