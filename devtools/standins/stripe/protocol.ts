// The Stripe stand-in's wire format: Stripe's form-encoded parameters and its error answers.
import type { Context } from 'hono';
import { escapeHtml, isRecord } from '#devtools/standins/shared';
import type { Metadata } from './index';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Decodes a Stripe form body / query string into nested objects and arrays, as Stripe reads it.
 * @example parseStripeForm('metadata[orderId]=o1&expand[0]=payment_intent') // { metadata: { orderId: 'o1' }, expand: ['payment_intent'] }
 */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!match) throw new Error(`malformed key ${rawKey}`);
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    let node: Record<string, unknown> = root;
    for (let i = 0; i < path.length; i++) {
      // `key[]` appends, like qs.
      const key = path[i] === '' ? String(Object.keys(node).length) : path[i];
      if (FORBIDDEN_KEYS.has(key)) throw new Error(`forbidden key ${rawKey}`);
      if (i === path.length - 1) {
        node[key] = value;
      } else {
        if (!isRecord(node[key])) node[key] = {};
        node = node[key] as Record<string, unknown>;
      }
    }
  }
  return arrayify(root) as Record<string, unknown>;
}

/** Objects whose keys are all 0..n-1 become arrays (`line_items[0]…`). */
function arrayify(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = arrayify(value[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    const sorted = keys.map(Number).sort((a, b) => a - b);
    if (sorted.every((n, i) => n === i)) return sorted.map((n) => out[String(n)]);
  }
  return out;
}

/** Validation failures (a `param` named, or an unknown route/key) are not stored for idempotent replay. */
export function isValidationFailure(status: number, body: string): boolean {
  if (status < 400) return false;
  if (status === 401 || status === 409 || status === 429) return true;
  try {
    const parsed = JSON.parse(body) as { error?: { param?: unknown } };
    return status === 400 && parsed.error?.param !== undefined;
  } catch {
    return true;
  }
}

export function expandParam(p: Record<string, unknown>): string[] {
  return Array.isArray(p.expand) ? p.expand.filter((e): e is string => typeof e === 'string') : [];
}

export function intParam(value: unknown): number | null {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500. */
export function metadataParam(value: unknown): Metadata | string {
  if (value === undefined || value === '') return {};
  if (!isRecord(value)) return 'Invalid object';
  const out: Metadata = {};
  const entries = Object.entries(value);
  if (entries.length > 50) return 'Metadata can have at most 50 keys';
  for (const [k, v] of entries) {
    if (typeof v !== 'string') return `Invalid value for metadata[${k}]`;
    if (k.length > 40) return `Metadata keys must be at most 40 characters (${k})`;
    if (v.length > 500) return `Metadata values must be at most 500 characters (${k})`;
    if (v !== '') out[k] = v;
  }
  return out;
}

/** The key from `Authorization: Bearer <key>` or HTTP Basic `<key>:` (both accepted by Stripe). */
export function apiKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.split(/\s+/, 2);
  if (!value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const user = decoded.split(':')[0];
    return user || null;
  }
  return null;
}

export function redactKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(0, Math.min(key.length - prefix.length - 4, 24)))}${key.slice(-4)}`;
}

// --- responses ----------------------------------------------------------------------------------------

interface StripeErrorBody {
  type: 'invalid_request_error' | 'api_error' | 'card_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
}

export function stripeError(c: Context, status: 400 | 401 | 402 | 404 | 410 | 429 | 500, error: StripeErrorBody) {
  return c.json({ error }, status);
}

export function invalid(c: Context, param: string | undefined, message: string) {
  return stripeError(c, 400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
}

export function unknownParam(c: Context, name: string) {
  return stripeError(c, 400, {
    type: 'invalid_request_error',
    code: 'parameter_unknown',
    param: name,
    message: `Received unknown parameter: ${name}`,
  });
}

export function missing(c: Context, objectName: string, id: string, param: string) {
  return stripeError(c, 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${objectName}: '${id}'`,
  });
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f6f9fc;color:#1a1f36}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{font-weight:700;margin:0 0 16px}.tag{font-size:12px;background:#ffde92;color:#733800;padding:2px 6px;border-radius:4px;margin-left:4px}
h1{font-size:20px;margin:16px 0 8px}.item{margin:0;color:#4f566b}.amount{font-size:32px;font-weight:700;margin:4px 0 20px}
.card{background:#fff;border:1px solid #e3e8ee;border-radius:8px;padding:12px 14px;margin:0 0 16px}
.label{font-size:14px;margin:0 0 8px;color:#4f566b}.field{border:1px solid #e3e8ee;border-radius:6px;padding:10px;color:#a3acb9;margin:0 0 8px;background:#f7fafc}
.row{display:flex;gap:8px}.row .field{flex:1}
.note{font-size:13px;color:#4f566b;margin:8px 0 0}
.error{background:#fde8e8;color:#a41c1c;border-radius:6px;padding:10px 12px}
button,.button{display:block;box-sizing:border-box;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:6px;border:1px solid #635bff;background:#fff;color:#635bff;text-align:center;text-decoration:none;cursor:pointer}
button.primary,.button.primary{background:#635bff;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#4f566b}
</style></head><body><main>${body}</main></body></html>`;
}

// --- small helpers ------------------------------------------------------------------------------------
