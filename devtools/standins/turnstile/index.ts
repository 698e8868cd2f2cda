// Local stand-in for Cloudflare Turnstile, for tests and the local demo (TURNSTILE_VERIFY_URL, sandbox
// only): siteverify with Cloudflare's documented answer shape, and a tiny widget script with the
// explicit-render API (`turnstile.render/reset/remove/getResponse`). Tokens `pass-…` are genuine
// (each once); anything else fails; a wrong secret fails with `invalid-input-secret`.
// developers.cloudflare.com/turnstile/get-started/server-side-validation/
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { listenStandin } from '#devtools/standins/shared';

export interface TurnstileStandinOptions {
  /** The secret the shop must send (its TURNSTILE_SECRET_KEY). */
  secretKey: string;
  host?: string;
  port?: number;
}

export interface TurnstileStandin {
  url: string;
  /** For TURNSTILE_VERIFY_URL. */
  verifyUrl: string;
  /** The widget's script (what the shop's pages load instead of Cloudflare's). */
  scriptUrl: string;
  /** A fresh token that siteverify accepts once (what a person gets by passing the widget). */
  passToken(): string;
  /** The siteverify calls received, oldest first. */
  readonly calls: { response: string | null; remoteip: string | null; success: boolean }[];
  close(): Promise<void>;
}

/** @example const turnstile = await startTurnstileStandin({ secretKey: 'standin-secret' }) */
export async function startTurnstileStandin(options: TurnstileStandinOptions): Promise<TurnstileStandin> {
  const used = new Set<string>();
  const calls: TurnstileStandin['calls'] = [];
  const app = new Hono();

  app.post('/turnstile/v0/siteverify', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let fields: Record<string, unknown> = {};
    try {
      fields = type.includes('application/json')
        ? ((await c.req.json()) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(await c.req.text()));
    } catch {
      return c.json({ success: false, 'error-codes': ['bad-request'] });
    }
    const response = typeof fields.response === 'string' ? fields.response : null;
    const remoteip = typeof fields.remoteip === 'string' ? fields.remoteip : null;
    const errors: string[] = [];
    if (!fields.secret) errors.push('missing-input-secret');
    else if (fields.secret !== options.secretKey) errors.push('invalid-input-secret');
    if (!response) errors.push('missing-input-response');
    else if (!response.startsWith('pass-') || response.length > 2048) errors.push('invalid-input-response');
    else if (used.has(response)) errors.push('timeout-or-duplicate');
    const success = errors.length === 0;
    if (success) used.add(response!);
    calls.push({ response, remoteip, success });
    return c.json(
      success
        ? {
            success,
            'error-codes': [],
            challenge_ts: new Date().toISOString(),
            hostname: 'localhost',
            action: '',
            cdata: '',
          }
        : { success, 'error-codes': errors },
    );
  });

  app.get('/turnstile/v0/api.js', (c) =>
    c.body(WIDGET_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }),
  );

  const { server, url } = await listenStandin(app.fetch, { host: options.host, port: options.port });
  return {
    url,
    verifyUrl: `${url}/turnstile/v0/siteverify`,
    scriptUrl: `${url}/turnstile/v0/api.js`,
    passToken: () => `pass-${randomBytes(12).toString('base64url')}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The widget: a button that, pressed, hands the page a `pass-…` token through `callback`, as the real
// widget does once a person passes. Plain DOM, no frame; `?onload=name` is called when loaded.
const WIDGET_SCRIPT = `(() => {
  const widgets = new Map();
  let next = 0;
  const token = () => 'pass-' + Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
  const element = (target) => (typeof target === 'string' ? document.querySelector(target) : target);
  window.turnstile = {
    render(target, params = {}) {
      const host = element(target);
      if (!host) throw new Error('turnstile stand-in: no element to render into');
      const id = 'standin-' + ++next;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.turnstileStandin = id;
      button.textContent = params.language === 'ja' ? '確認する（テスト用）' : 'Verify (stand-in)';
      const widget = { host, button, params, response: '' };
      button.addEventListener('click', () => {
        widget.response = token();
        button.textContent = params.language === 'ja' ? '確認しました' : 'Verified';
        button.disabled = true;
        params.callback && params.callback(widget.response);
      });
      host.appendChild(button);
      widgets.set(id, widget);
      return id;
    },
    reset(id) {
      const widget = widgets.get(id);
      if (!widget) return;
      widget.response = '';
      widget.button.disabled = false;
      widget.button.textContent = widget.params.language === 'ja' ? '確認する（テスト用）' : 'Verify (stand-in)';
    },
    remove(id) {
      const widget = widgets.get(id);
      if (widget) widget.button.remove();
      widgets.delete(id);
    },
    getResponse(id) {
      return widgets.get(id)?.response ?? '';
    },
  };
  const onload = new URL(document.currentScript?.src ?? location.href).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();
`;
