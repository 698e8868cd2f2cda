// Google sign-in stand-in: a real OpenID Connect provider (the `oidc-provider` package) whose issuer
// is https://accounts.google.com and whose routes sit at Google's paths: the authorization endpoint
// /o/oauth2/v2/auth, the token endpoint (oauth2.googleapis.com)/token, the keys
// (www.googleapis.com)/oauth2/v3/certs, userinfo (openidconnect.googleapis.com)/v1/userinfo and
// discovery /.well-known/openid-configuration. ID tokens are RS256 with email, email_verified, name
// and picture, as better-auth's google provider reads them. The consent page is the stand-in's own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';
import { Agent, fetch as undiciFetch } from 'undici';
import { escapeHtml } from '#devtools/standins/shared';
import { nextId } from './oauth2';
import { OAUTH_PROVIDER_HOSTS, toLocal, type OAuthStandin, type OAuthStandinUser } from './types';

export const GOOGLE_ISSUER = 'https://accounts.google.com';

export interface GoogleStandinOptions {
  clientId: string;
  clientSecret: string;
  /** Registered redirect URIs (exact). */
  callbackUrls: string[];
  host?: string;
  port?: number;
  /**
   * A real browser opens the authorization and consent pages (a sandbox shop, server/social-standins.ts):
   * those pages then keep the stand-in's own address in their redirects; the calls the shop makes
   * (token, keys, userinfo) are still answered as https://accounts.google.com.
   */
  browser?: boolean;
}

function newGoogleUser(): OAuthStandinUser {
  const id = `1${nextId(20)}`;
  return { id, name: `Google User ${id.slice(-4)}`, email: `g${id}@gmail.com`, emailVerified: true };
}

/** Who signs in: the preset user (`current`) and every user who signed in so far, by id. */
interface GoogleAccounts {
  current: OAuthStandinUser;
  users: Map<string, OAuthStandinUser>;
}

/** The OpenID Connect provider at Google's paths, answering for the accounts' users. */
function googleProvider(options: GoogleStandinOptions, accounts: GoogleAccounts): Provider {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };

  const provider = new Provider(GOOGLE_ISSUER, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.callbackUrls,
        response_types: ['code'],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    ttl: { Interaction: 10 * 60, Session: 60 * 60, Grant: 60 * 60 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // Google puts the profile claims in the ID token itself; better-auth reads them from there.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    routes: {
      authorization: '/o/oauth2/v2/auth',
      token: '/token',
      jwks: '/oauth2/v3/certs',
      userinfo: '/v1/userinfo',
    },
    findAccount: async (_ctx, sub) => {
      const user = accounts.users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          name: user.name,
          ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
          ...(user.picture ? { picture: user.picture } : {}),
        }),
      };
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>エラー</title><h1>エラー</h1><pre>${escapeHtml(JSON.stringify(out))}</pre>`;
    },
  });
  provider.proxy = true;
  // Google-only authorization parameters that oidc-provider would refuse or ignore.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/o/oauth2/v2/auth') {
      const query = { ...ctx.query };
      if (query.prompt === 'select_account') delete query.prompt;
      delete query.include_granted_scopes;
      delete query.access_type;
      ctx.query = query;
    }
    await next();
  });
  return provider;
}

/** The consent page (GET) and the member's decision (POST) of one interaction. */
async function interaction(
  provider: Provider,
  accounts: GoogleAccounts,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'GET') {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html lang="ja"><meta charset="utf-8"><title>Googleでログイン（テスト環境）</title>
<h1>Googleでログイン（テスト環境）</h1><p>テスト用の代役です。</p>
<p><strong>${escapeHtml(accounts.current.name)}</strong>（${escapeHtml(accounts.current.email ?? 'メールなし')}）としてログインします。</p>
<form method="post" action="/interaction/${escapeHtml(details.uid)}">
<button type="submit" name="decision" value="allow">許可する</button>
<button type="submit" name="decision" value="deny">キャンセル</button></form></html>`);
    return;
  }
  const body = await new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => resolve(text));
  });
  if (new URLSearchParams(body).get('decision') !== 'allow') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The user denied the request.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = accounts.current.id;
  accounts.users.set(accountId, accounts.current);
  const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

/** A small browser: follows the provider's redirects with its cookies until it leaves for the client. */
async function decideInBrowser(
  authorizationUrl: string,
  decision: 'approve' | 'cancel',
  hosts: readonly string[],
  local: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  const browserAgent = new Agent();
  const send = async (url: URL, init: RequestInit = {}) => {
    // undici's own fetch on its own agent: every Set-Cookie line arrives, whatever the global dispatcher is.
    const response = await undiciFetch(toLocal(url, hosts, local), {
      ...(init as object),
      dispatcher: browserAgent,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
    return response;
  };
  try {
    let response = await send(new URL(authorizationUrl));
    for (let hop = 0; hop < 10; hop++) {
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, GOOGLE_ISSUER);
        if (!hosts.includes(next.host)) return next;
        response = await send(next);
        continue;
      }
      const html = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
      if (response.status !== 200 || !action)
        throw new Error(`google stand-in: answered ${response.status}: ${html.slice(0, 300)}`);
      response = await send(new URL(action, GOOGLE_ISSUER), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision: decision === 'approve' ? 'allow' : 'deny' }).toString(),
      });
    }
    throw new Error('google stand-in: too many redirects');
  } finally {
    await browserAgent.close();
  }
}

/** @example const google = await startGoogleStandin({ clientId: 'x.apps.googleusercontent.com', clientSecret: 's', callbackUrls: [cb] }) */
export async function startGoogleStandin(options: GoogleStandinOptions): Promise<OAuthStandin> {
  const first = newGoogleUser();
  const accounts: GoogleAccounts = { current: first, users: new Map([[first.id, first]]) };
  const provider = googleProvider(options, accounts);

  const providerCallback = provider.callback();
  const server = http.createServer((req, res) => {
    // Every request is answered as https://accounts.google.com (tests reach it through routed hosts),
    // except, for a browser, the pages it opens itself.
    const url = new URL(req.url ?? '/', GOOGLE_ISSUER);
    const browserPage = /^\/(?:o\/oauth2\/v2\/auth|interaction)(?:\/|$)/.test(url.pathname);
    if (!(options.browser && browserPage)) {
      req.headers['x-forwarded-proto'] = 'https';
      req.headers['x-forwarded-host'] = 'accounts.google.com';
    }
    const match = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (!match) return void providerCallback(req, res);
    void interaction(provider, accounts, req, res).catch((error: unknown) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end(`interaction failed: ${String(error)}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const local = `http://127.0.0.1:${port}`;
  const hosts = OAUTH_PROVIDER_HOSTS.google;

  return {
    provider: 'google',
    url: local,
    hosts,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    users: {
      preset(user = {}) {
        accounts.current = { ...newGoogleUser(), ...user };
        accounts.users.set(accounts.current.id, accounts.current);
        return accounts.current;
      },
      get current() {
        return accounts.current;
      },
    },
    decide: (authorizationUrl, decision) => decideInBrowser(authorizationUrl, decision, hosts, local),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
