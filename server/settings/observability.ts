// Seeing the shop run and stopping it gently (decision 072): who may scrape /metrics, where traces go,
// and how long an instance keeps serving after SIGTERM before it stops accepting.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';
import { parseAddressList } from '../observability/address-list';

export const observabilitySettings = declareSettings({
  title: 'Metrics, traces and draining',
  shape: {
    METRICS_TOKEN: z
      .string()
      .min(24, 'must be at least 24 characters')
      .max(256)
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .optional(),
    METRICS_ALLOW: z
      .string()
      .max(4000)
      .transform((text, context) => {
        const blocks = parseAddressList(text);
        if (typeof blocks === 'string') {
          context.addIssue({ code: 'custom', message: blocks });
          return z.NEVER;
        }
        return blocks;
      })
      .optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
    OTEL_SERVICE_NAME: z.string().min(1).max(100).default('oripa-shop'),
    DRAIN_DELAY_SECONDS: z.coerce.number().int().min(0).max(120).default(5),
    DRAIN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(20),
  },
  docs: {
    METRICS_TOKEN: {
      default: '(unset)',
      allowed: '24 to 256 printable characters',
      secret: true,
      meaning:
        '`GET /metrics` (Prometheus text) answers a request carrying `Authorization: Bearer <this>`; with neither ' +
        'this nor `METRICS_ALLOW` set, `/metrics` is off and answers like any unknown page (decision 072)',
    },
    METRICS_ALLOW: {
      default: '(unset: no address)',
      allowed: 'addresses or CIDR blocks, comma-separated (`10.0.8.0/24,fd00::/64,127.0.0.1`)',
      meaning:
        "`GET /metrics` also answers a scraper connecting from these addresses, without a token: the connection's own " +
        'address, never one forwarded by a proxy (a request with `X-Forwarded-For`, `Forwarded`, `X-Real-IP` or ' +
        '`X-Forwarded-Host` is never let in by address, so a scrape through the load balancer is not let in by the ' +
        "balancer's address, whatever `TRUST_PROXY` says)",
    },
    OTEL_EXPORTER_OTLP_ENDPOINT: {
      default: '(unset: no tracing, nothing loaded)',
      allowed: 'a URL such as `http://otel-collector:4318`',
      meaning:
        'send OpenTelemetry traces (a span per HTTP request, a child span per database statement: its kind and ' +
        'table, never its values) over OTLP/HTTP to `<this>/v1/traces`; `OTEL_EXPORTER_OTLP_HEADERS` is read by ' +
        'the exporter as usual',
    },
    OTEL_SERVICE_NAME: { meaning: "the traces' `service.name`" },
    DRAIN_DELAY_SECONDS: {
      meaning:
        'after SIGTERM, readiness (`/api/health/ready`) answers 503 at once while the instance keeps serving this ' +
        "long, so the load balancer's health check takes it out before it stops accepting connections; longer than " +
        "the balancer's check interval × its fall count",
    },
    DRAIN_TIMEOUT_SECONDS: {
      meaning:
        'after it stops accepting, how long the instance waits for requests in flight and running jobs to finish ' +
        "before it closes what is left; the process manager's stop timeout must exceed " +
        '`DRAIN_DELAY_SECONDS` + this + 10',
    },
  },
});
