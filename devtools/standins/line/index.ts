// Local stand-in for LINE Login v2.1 (web login): the authorization page, the token, userinfo and
// verify endpoints, for tests and the local demo. It speaks the documented shapes
// (developers.line.biz/en/reference/line-login/): authorization code flow with optional PKCE (S256),
// client_id/client_secret in the form body, HS256 ID tokens signed with the channel secret, errors as
// `{ error, error_description }` with 400. What it simplifies is listed in ../line.md.
import { Hono } from 'hono';
import { listenStandin } from '#devtools/standins/shared';

import { ROUTES } from './routing';
import { type LineState, newLineUserId } from './state';

export interface LineStandinOptions {
  port?: number;
  host?: string;
  /** The LINE Login channel this stand-in plays: the shop's LINE_CHANNEL_ID / LINE_CHANNEL_SECRET. */
  channelId: string;
  channelSecret: string;
  /** Registered callback URLs (exact match, query ignored); any http(s) URL is accepted when unset. */
  callbackUrls?: string[];
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
}

/** The LINE user who "logs in" on the authorization page. */
export interface LineStandinUser {
  /** LINE user ID: 'U' and 32 hex digits. */
  sub: string;
  name: string;
  picture?: string;
  /** Only returned (in the ID token) when the `email` scope was asked for. */
  email?: string;
}

export interface LineStandin {
  url: string;
  /** Endpoints to hand to lineOAuthConfig({ baseUrls }). */
  baseUrls: { authorize: string; token: string; userinfo: string; verify: string };
  users: {
    /** Presets the LINE user for the next authorization requests (also answered, with a fresh sub when none is given). */
    preset(user?: Partial<LineStandinUser>): LineStandinUser;
    /** The user the next authorization request will log in as. */
    readonly current: LineStandinUser;
    /** A fresh LINE user ID. */
    newId(): string;
  };
  /**
   * Plays the member on the authorization page over HTTP: opens `authorizationUrl`, presses 許可する
   * ('approve') or キャンセル ('cancel'), and answers where LINE sends the browser (the Location).
   */
  decide(authorizationUrl: string, decision: 'approve' | 'cancel'): Promise<URL>;
  close(): Promise<void>;
}

/** @example const line = await startLineStandin({ channelId: '1650000000', channelSecret: 'secret' }) */
export async function startLineStandin(options: LineStandinOptions): Promise<LineStandin> {
  const state: LineState = {
    options,
    pending: new Map(),
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    current: { sub: newLineUserId(), name: 'LINE太郎', picture: 'https://profile.line-scdn.net/standin/taro' },
  };
  const app = new Hono();
  for (const route of ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const listening = await listenStandin(app.fetch, { host: options.host, port: options.port });
  const url = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  return {
    url,
    baseUrls: {
      authorize: `${url}/oauth2/v2.1/authorize`,
      token: `${url}/oauth2/v2.1/token`,
      userinfo: `${url}/oauth2/v2.1/userinfo`,
      verify: `${url}/oauth2/v2.1/verify`,
    },
    users: {
      preset(user = {}) {
        state.current = {
          sub: user.sub ?? newLineUserId(),
          name: user.name ?? 'LINE太郎',
          picture: user.picture,
          email: user.email,
        };
        return { ...state.current };
      },
      get current() {
        return { ...state.current };
      },
      newId: newLineUserId,
    },
    async decide(authorizationUrl, decision) {
      const pageResponse = await fetch(authorizationUrl, { redirect: 'manual' });
      if (pageResponse.status !== 200) {
        const location = pageResponse.headers.get('location');
        if (location) return new URL(location);
        throw new Error(
          `line stand-in: authorization page answered ${pageResponse.status}: ${await pageResponse.text()}`,
        );
      }
      const html = await pageResponse.text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
      if (!requestId) throw new Error('line stand-in: no request_id on the authorization page');
      const answer = await fetch(`${url}/oauth2/v2.1/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, decision: decision === 'approve' ? 'allow' : 'deny' }),
        redirect: 'manual',
      });
      const location = answer.headers.get('location');
      if (answer.status !== 302 || !location) throw new Error(`line stand-in: decision answered ${answer.status}`);
      return new URL(location);
    },
    async close() {
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
