// What every local stand-in shares: listening on a free loopback port, the small helpers of its
// hosted pages and request checks.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

/**
 * Serves `fetch` on `host:port` (default 127.0.0.1 and a free port) and answers the server with the
 * http URL it is reached at (a wildcard host is shown as 127.0.0.1).
 * @example const { server, url } = await listenStandin(app.fetch, { port: 0 })
 */
export async function listenStandin(
  fetch: (request: Request) => Response | Promise<Response>,
  options: { host?: string; port?: number } = {},
) {
  const server = createAdaptorServer({ fetch });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return { server, host, port, url: `http://${shownHost}:${port}` };
}

/** @example isRecord({}) === true; isRecord([]) === false */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** @example isHttpUrl('javascript:alert(1)') === false */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Letters and digits, for ids and tokens. @example token(24).length === 24 */
export function token(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );
}
