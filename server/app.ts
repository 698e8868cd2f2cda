// The Hono application: health, auth, images, build metadata, SEO files, static assets, the operators'
// commands (embedded database), and the React Router handler for every page. Everything a request
// passes through is assembled here.
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import { bodyLimit } from 'hono/body-limit';
import { RouterContextProvider, type ServerBuild, createRequestHandler } from 'react-router';
import path from 'node:path';
import type { ShopServices } from './services';
import { securityHeaders, crossSiteRequestGuard, clientAddress, hasForwardingHeaders, isLoopback } from './security';
import { apiError, unexpectedErrorAnswer, BUSY_RETRY_AFTER_SECONDS, SERVICE_BUSY_MESSAGE } from './api-error';
import { isDatabaseUnavailable } from '#db/unavailable';
import { catalogueDbFor, markWrites } from './read-routing';
import { shopRequestContext, type SessionMember } from './context';
import { AUTH_ADMIN_ENDPOINTS, AUTH_ENDPOINTS_ONLY_THROUGH_PAGES, CLIENT_IP_HEADER } from '#modules/identity/server';
import { isNoindexPath } from '#modules/kernel/navigation';
import { invitationLinkCookie } from './invitation';
import { createImageRoute } from './images';
import { createMediaRoute, mediaStoreOf } from './media';
import { chooseEncoding, compressResponses } from './compression';
import { cachedPageRoute, sharedRequest, type CachedPage } from './page-cache';
import { fromMemberShell, memberShellKeyOf } from './personal-shell';
import { serveBuiltFiles } from './static-files';
import { robotsTxt, sitemapXml } from './seo';
import { createApiV1 } from './api/v1';
import { createFarmClockRoute } from './farm';
import { fastMember } from './api/v1/auth';
import { toSessionMember } from '#modules/identity/server';
import { createWebhookRoutes } from './payments';
import { authAnswer, emptyErrorsAsJson } from './error-answers';
import { createOutboxJsonRoute, createTwilioStatusRoutes } from './messaging';
import { createOperatorRoute } from './operator-route';
import { BANNER_IMAGE_MAX_BYTES, CONTENT_IMAGE_MAX_BYTES } from '#modules/content';
import { drainingAnswers } from './drain';
import { mountOperationsRoutes } from './observability/routes';
import { notePageRoute, routeLabel, withRoutePatterns } from './observability/route-label';

/** The largest request body the shop reads (forms, JSON, provider webhooks); the contact form alone has its own. */
export const MAX_REQUEST_BODY_BYTES = 256 * 1024;

/** The banner console's page, whose posts may carry one image ('.data': the same post made by its scripts). */
export const BANNER_POST_PATHS: readonly string[] = ['/admin/banners', '/admin/banners.data'];
/** The banner console's body limit: one image at BANNER_IMAGE_MAX_BYTES and room for the fields. */
export const BANNER_BODY_LIMIT = BANNER_IMAGE_MAX_BYTES + 64 * 1024;

/**
 * The content editor's posts (/admin/content/<id>: a page's rich text and slices; /admin/content/images:
 * one image at CONTENT_IMAGE_MAX_BYTES). Their actions check the operator before anything else.
 */
export const CONTENT_EDITOR_POST_PATH = /^\/admin\/content(\/[A-Za-z0-9-]{1,60})?(\.data)?$/;
export const CONTENT_EDITOR_BODY_LIMIT = CONTENT_IMAGE_MAX_BYTES + 1024 * 1024;

/** The contact form's page, whose posts may carry images ('.data': the same post made by the page's scripts). */
export const CONTACT_POST_PATHS: readonly string[] = ['/contact', '/contact.data'];

/** The pack editor's pages, whose posts may carry one image. */
export const PACK_EDITOR_POST_PATH = /^\/admin\/packs\/[a-z0-9-]{1,60}(\.data)?$/;

/**
 * The contact form's own body limit: three images at CONTACT_IMAGE_MAX_BYTES and room for the text
 * fields and the multipart framing; every other request keeps MAX_REQUEST_BODY_BYTES (docs/decisions/024).
 * @example contactBodyLimit({ CONTACT_IMAGE_MAX_BYTES: 5_000_000 }) === 15_065_536
 */
export function contactBodyLimit(config: { CONTACT_IMAGE_MAX_BYTES: number }): number {
  return Math.max(MAX_REQUEST_BODY_BYTES, 3 * config.CONTACT_IMAGE_MAX_BYTES + 64 * 1024);
}

type Env = { Variables: { requestId: string; secureHeadersNonce?: string; cspScriptHashes?: string[] } };

export interface ServerAppOptions {
  services: ShopServices;
  /** The React Router server build, or a function that loads it per request (development). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder of the built client assets (production); undefined in development, where Vite serves them. */
  clientDir?: string;
  publicDir: string;
  /** The local admin token of DATA_DIR/operator.json (embedded database only): opens POST /_operator/commands. */
  operatorToken?: string;
}

/**
 * A page rendered by React Router for one request, with the member (or none) and whether only the busy page
 * may answer; or the members' shell of a catalogue page (decision 077: no member, holes for every member's own).
 */
type RenderPage = (
  c: Context<Env>,
  request: Request,
  member: SessionMember | null,
  busy?: boolean,
  personalShell?: boolean,
) => Promise<Response>;

/** @example const app = createServerApp({ services, build, clientDir: 'build/client', publicDir: 'public' }) */
export function createServerApp(options: ServerAppOptions) {
  const { services } = options;
  const app = new Hono<Env>();
  const handleDocument = createRequestHandler(withRoutePatterns(options.build), services.config.NODE_ENV);
  const renderPage = pageRenderer(services, handleDocument);
  // The request's span around everything else, only when traces are on (decision 072).
  if (services.tracing) app.use(services.tracing.middleware);
  useRequestBasics(app, services);
  // After SIGTERM (decision 072): answers close their connections; once the instance stopped
  // accepting, a request still arriving is refused whole, in the shop's JSON or as the busy page.
  if (services.serving)
    app.use(
      drainingAnswers(services.serving, (c) =>
        answersInJson(c.req.path)
          ? apiError(c, 503, 'SERVICE_BUSY', SERVICE_BUSY_MESSAGE)
          : renderPage(c, withoutBody(c.req.raw), null, true),
      ),
    );
  useBodyLimits(app, services.config);
  refuseControlCharacters(app);
  answerErrors(app, services, renderPage);
  mountApi(app, services);
  const images = mountFilesAndDevRoutes(app, options);
  mountPages(app, options, renderPage);
  // The image app alone, for the start-up cache warm-up (server/images/warm.ts).
  return Object.assign(app, { images });
}

/** Every request: its id, its log line, compression, the security headers, the client's address, the cross-site guard. */
function useRequestBasics(app: Hono<Env>, services: ShopServices) {
  const { config, logger } = services;
  // Ids are always ours: an incoming X-Request-Id could forge or collide log lines.
  app.use(requestId({ headerName: '' }));
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    c.header('X-Request-Id', c.get('requestId'));
    if (isNoindexPath(c.req.path)) c.header('X-Robots-Tag', 'noindex, nofollow');
    services.metrics?.httpRequest({ method: c.req.method, route: routeLabel(c), status: c.res.status, seconds });
    // The balancers' checks and the scrapes come every few seconds: their lines only at debug.
    const level = OPERATIONS_PATHS.has(c.req.path) ? 'debug' : 'info';
    logger[level](
      {
        reqId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(seconds * 10_000) / 10,
      },
      'request',
    );
  });
  // Pages and JSON by Accept-Encoding; static files come precompressed and event streams are left alone.
  app.use(compressResponses());
  app.use(securityHeaders(config, services.payments?.pageSources));
  app.use(clientAddress(config));
  app.use(crossSiteRequestGuard(config));
  app.use(markWrites(services.reads));
  // Inside the security headers, so they reach the error body that replaces an empty one.
  app.use(emptyErrorsAsJson());
}

/** The request body limits, one per page that takes uploads. */
function useBodyLimits(app: Hono<Env>, config: ShopServices['config']) {
  // Forms and JSON here are small; a huge body is refused before anything reads it. The contact form
  // alone takes images: its own larger limit, for a POST to that one page only (its action counts the
  // post against the address's limit before it reads the body).
  const tooLarge = bodyLimit({
    maxSize: MAX_REQUEST_BODY_BYTES,
    onError: (c) => apiError(c, 413, 'REQUEST_TOO_LARGE', '送信内容が大きすぎます。'),
  });
  const contactMax = contactBodyLimit(config);
  const contactTooLarge = bodyLimit({
    maxSize: contactMax,
    onError: (c) =>
      apiError(
        c,
        413,
        'REQUEST_TOO_LARGE',
        `送信内容が大きすぎます（画像は合計${Math.floor(contactMax / 1_000_000)}MBまで）。画像を小さくするか枚数を減らしてください。`,
      ),
  });
  // The pack editor's pages take one image per post (decision 030); their action checks the operator.
  const packImageTooLarge = bodyLimit({
    maxSize: config.PACK_IMAGE_MAX_BYTES + 64 * 1024,
    onError: (c) =>
      apiError(
        c,
        413,
        'REQUEST_TOO_LARGE',
        `画像が大きすぎます（${Math.floor(config.PACK_IMAGE_MAX_BYTES / 1_000_000)}MBまで）。小さくしてからアップロードしてください。`,
      ),
  });
  const bannerTooLarge = bodyLimit({
    maxSize: BANNER_BODY_LIMIT,
    onError: (c) =>
      apiError(
        c,
        413,
        'REQUEST_TOO_LARGE',
        `送信内容が大きすぎます（画像は${Math.floor(BANNER_IMAGE_MAX_BYTES / 1_000_000)}MBまで）。画像を小さくしてください。`,
      ),
  });
  const contentTooLarge = bodyLimit({
    maxSize: CONTENT_EDITOR_BODY_LIMIT,
    onError: (c) =>
      apiError(
        c,
        413,
        'REQUEST_TOO_LARGE',
        `送信内容が大きすぎます（画像は${Math.floor(CONTENT_IMAGE_MAX_BYTES / 1_000_000)}MBまで）。画像を小さくするか、ページを分けてください。`,
      ),
  });
  app.use((c, next) => {
    if (c.req.method !== 'POST') return tooLarge(c, next);
    if (CONTENT_EDITOR_POST_PATH.test(c.req.path)) return contentTooLarge(c, next);
    if (CONTACT_POST_PATHS.includes(c.req.path)) return contactTooLarge(c, next);
    if (BANNER_POST_PATHS.includes(c.req.path)) return bannerTooLarge(c, next);
    if (PACK_EDITOR_POST_PATH.test(c.req.path)) return packImageTooLarge(c, next);
    return tooLarge(c, next);
  });
}

function refuseControlCharacters(app: Hono<Env>) {
  // Control characters never belong in a path; refusing them here keeps them away from every query.
  app.use(async (c, next) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      path = c.req.path;
    }
    if (/[\u0000-\u001f\u007f]/.test(path)) return apiError(c, 400, 'INVALID_PATH', 'アドレスが正しくありません。');
    return next();
  });
}

function pageRenderer(services: ShopServices, handleDocument: ReturnType<typeof createRequestHandler>): RenderPage {
  /**
   * A page through React Router. When the database went away under it (a guard, loader or action met
   * it; entry.server's handleError notes it), the page is thrown away and the busy page answers: 503,
   * Retry-After, never stored by the page cache (docs/decisions/054).
   */
  const renderPage = async (
    c: Context<Env>,
    request: Request,
    member: SessionMember | null,
    busy = false,
    personalShell = false,
  ): Promise<Response> => {
    const faults = { databaseUnavailable: false };
    const observed: { route?: string } = {};
    const context = new RouterContextProvider();
    context.set(shopRequestContext, {
      requestId: c.get('requestId'),
      nonce: c.get('secureHeadersNonce') ?? '',
      member,
      personalShell,
      services,
      catalogue: catalogueDbFor(c, services.reads, services.db),
      busy,
      faults,
      observed,
    });
    const response = await handleDocument(request, context);
    notePageRoute(c, observed.route);
    if (busy) return busyAnswer(response);
    if (!faults.databaseUnavailable) return response;
    await response.body?.cancel().catch(() => undefined);
    // The busy render reads nothing (the root guard answers it first), so nobody is needed for it.
    return renderPage(c, withoutBody(request), null, true);
  };
  return renderPage;
}

function answerErrors(app: Hono<Env>, services: ShopServices, renderPage: RenderPage) {
  const { logger } = services;
  app.onError(async (error, c) => {
    // The database away under anything a page passes first (the session lookup, a middleware): the
    // busy page for pages, JSON for the API and the operators' routes.
    if (isDatabaseUnavailable(error) && !answersInJson(c.req.path)) {
      logger.warn({ reqId: c.get('requestId'), path: c.req.path }, 'database unavailable: the busy page answers');
      try {
        return await renderPage(c, withoutBody(c.req.raw), null, true);
      } catch (renderError) {
        return unexpectedErrorAnswer(c, renderError, logger);
      }
    }
    return unexpectedErrorAnswer(c, error, logger);
  });
}

/** Health, auth, live updates, the JSON API and the providers' webhooks; any other /api path is a JSON 404. */
function mountApi(app: Hono<Env>, services: ShopServices) {
  const { logger, auth } = services;
  // Liveness, readiness, /api/health and /metrics (decision 072).
  mountOperationsRoutes(app, services);

  app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
    if (c.req.path.toLowerCase().startsWith(AUTH_ADMIN_ENDPOINTS)) {
      return apiError(
        c,
        403,
        'USE_ADMIN_AREA',
        'スタッフの操作は管理画面から行ってください（操作は監査ログに記録されます）。',
      );
    }
    if (AUTH_ENDPOINTS_ONLY_THROUGH_PAGES.some((prefix) => c.req.path.startsWith(prefix))) {
      return apiError(c, 403, 'USE_SHOP_PAGES', '会員登録と登録内容の変更は、サイトの画面から行ってください。');
    }
    // better-auth answers an unknown path with an empty 404 and its errors in English: shop-shaped here.
    return authAnswer(await auth.handler(c.req.raw), c.req.path, c.get('requestId'));
  });
  // Live remaining counts (server-sent events); the stream is not a JSON operation.
  app.get('/api/v1/gachas/:gachaId/events', (c): Response | Promise<Response> =>
    services.live
      ? services.live.stream(c, c.req.param('gachaId'))
      : apiError(c, 404, 'NOT_FOUND', 'APIが見つかりません。'),
  );
  // The winners feed as it happens (decision 036): every shown pack's new top-tier wins.
  app.get('/api/v1/winners/events', (c): Response | Promise<Response> =>
    services.live ? services.live.streamWinners(c) : apiError(c, 404, 'NOT_FOUND', 'APIが見つかりません。'),
  );
  app.route('/api/v1', createApiV1(services));
  app.route(
    '/api/webhooks/twilio',
    createTwilioStatusRoutes({ db: services.db, messaging: services.messaging, logger }),
  );
  if (services.payments) {
    app.route('/api/webhooks', createWebhookRoutes({ db: services.db, payments: services.payments, logger }));
    if (services.payments.sandboxApp) {
      // Free coins for whoever presses 承認: only ever for a browser on the machine itself.
      app.use('/sandbox/*', async (c, next) => {
        const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
        const client = c.req.header(CLIENT_IP_HEADER) ?? '';
        if (!isLoopback(host) || !isLoopback(client) || hasForwardingHeaders(c.req.raw.headers))
          return apiError(c, 404, 'NOT_FOUND', 'ページが見つかりません。');
        return next();
      });
      app.route('/sandbox', services.payments.sandboxApp);
    }
  }
  app.all('/api/*', (c) => apiError(c, 404, 'NOT_FOUND', 'APIが見つかりません。'));
}

/** The developer routes, images and media, and the SEO files; returns the image app for the warm-up. */
function mountFilesAndDevRoutes(app: Hono<Env>, options: ServerAppOptions) {
  const { services } = options;
  const { config, logger } = services;
  // The operators' command line while the shop runs on the embedded database (docs/decisions/020):
  // mounted below, after the page cache's invalidation.
  // The developer outbox's JSON form (the page is app/routes/dev/outbox.tsx); 404 unless allowed.
  app.route('/dev/outbox.json', createOutboxJsonRoute({ db: services.db, config }));
  // Tests and demos: the farm's clock moves forward (404 unless FARM_CLOCK_ADJUSTABLE and this machine).
  app.route('/dev/farm-clock', createFarmClockRoute(config));

  const media = mediaStoreOf(services);
  const images = createImageRoute({
    publicDir: options.clientDir ?? options.publicDir,
    cacheDir: path.join(config.dataDir, 'cache', 'images'),
    media,
    logger,
    // libvips frees its buffers after a burst of encodes; they go back to the system once it ends.
    onTransform: () => services.memory?.soon(),
  });
  app.route('/_img', images);
  // Uploads from the media store (decision 071): the pack editor's, by their unguessable names (030);
  // the banners' art (031) and content images (040), by content hash. All immutable.
  app.route('/media', createMediaRoute(media));
  app.get('/robots.txt', (c) => c.text(robotsTxt(config.PUBLIC_ORIGIN)));
  app.get('/sitemap.xml', async (c) =>
    c.body(await sitemapXml(services), 200, { 'Content-Type': 'application/xml; charset=utf-8' }),
  );
  return images;
}

/** The invitation cookie, the built files, the page cache, the operators' commands and every page. */
function mountPages(app: Hono<Env>, options: ServerAppOptions, renderPage: RenderPage) {
  const { services } = options;
  // /r?code=… leaves the invitation code in a short-lived cookie for the sign-up (decision 038).
  app.use(invitationLinkCookie());

  if (options.clientDir) {
    // Precompressed twins, immutable hashed assets, a short cache elsewhere (server/static-files.ts).
    app.use('*', serveBuiltFiles({ root: options.clientDir }));
  }

  // An operator's change (a page action or a command) reaches every visitor at once: the cached public
  // pages of every instance are dropped (docs/decisions/048).
  const pages = services.pages;
  if (pages) {
    app.use('/admin/*', async (c, next) => {
      await next();
      if (c.req.method === 'POST' && c.res.status < 400) await pages.invalidateEverywhere('admin');
    });
    app.use('/_operator/*', async (c, next) => {
      await next();
      if (c.req.method === 'POST' && c.res.status < 400) await pages.invalidateEverywhere('operator');
    });
  }

  // Dropped by the middleware above for /admin and /_operator, so the routes are mounted after it.
  app.route('/_operator', createOperatorRoute(services, options.operatorToken));

  app.all('*', async (c) => {
    const member = await currentMember(services, c.req.raw.headers);
    const render = (request: Request) => renderPage(c, request, member);
    // A member's catalogue page: the members' shell with this member's holes filled (decision 077).
    const shellKey = member && pages?.enabled ? memberShellKeyOf(c.req.raw, member) : null;
    if (member && pages && shellKey) {
      // The shell is rendered from the request without its cookies: nothing of this member reaches it.
      const filled = await fromMemberShell(services, pages, shellKey, member, c.req.raw, (shared) =>
        renderPage(c, shared, null, false, true),
      );
      if (filled) {
        notePageRoute(c, cachedPageRoute(c.req.path));
        // The shell's inline scripts run by their hashes, as the visitors' copy's (the personal JSON does not run).
        c.set('cspScriptHashes', filled.scriptHashes);
        return filled.response;
      }
    }
    const key = !member && pages ? pages.keyOf(c.req.raw) : null;
    if (pages && key) {
      const serve = async (page: CachedPage, state: 'hit' | 'miss') => {
        notePageRoute(c, cachedPageRoute(c.req.path));
        const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
        const headers = new Headers(page.headers);
        if (encoding) headers.set('Content-Encoding', encoding);
        headers.set('X-Page-Cache', state);
        // The stored page's inline scripts run by their hashes: no nonce is shared between visitors.
        c.set('cspScriptHashes', page.scriptHashes);
        return new Response(new Uint8Array(await pages.encodedBody(page, encoding)), {
          status: page.status,
          headers,
        });
      };
      const stored = pages.get(key);
      if (stored) return serve(stored, 'hit');
      // Rendered as for any visitor: no cookie of this one reaches the shared copy.
      const shared = sharedRequest(c.req.raw);
      const loaded = await pages.load(key, () => render(shared));
      if ('page' in loaded) return serve(loaded.page, 'miss');
      return loaded.response;
    }
    const response = await render(c.req.raw);
    // A member's page carries the member's coins (the header) and more: no shared cache may keep it.
    if (!member || response.headers.has('Cache-Control')) return response;
    const personal = new Response(response.body, response);
    personal.headers.set('Cache-Control', 'private, no-store');
    return personal;
  });
}

async function currentMember(services: ShopServices, headers: Headers): Promise<SessionMember | null> {
  if (!headers.get('cookie')?.includes('session_token')) return null;
  const fast = await fastMember(services, headers);
  if (fast !== 'slow') return fast;
  const session = await services.auth.api.getSession({ headers });
  return session ? toSessionMember(session.user as typeof session.user & { role?: string | null }) : null;
}

/** The load balancer's checks and the scrapers' path, logged at debug. */
const OPERATIONS_PATHS: ReadonlySet<string> = new Set([
  '/api/health',
  '/api/health/live',
  '/api/health/ready',
  '/metrics',
]);

/** Paths answered in JSON even when the database is away: the API, the operators' commands, dev JSON. */
const JSON_PATHS = /^\/(?:api|_operator)(?:\/|$)|^\/dev\/(?:outbox\.json|farm-clock)/;

/** @example answersInJson('/api/v1/gachas') === true; answersInJson('/contact') === false */
export function answersInJson(path: string): boolean {
  return JSON_PATHS.test(path);
}

/**
 * The request again without its body (the first render read it), for the busy render: its root guard
 * answers before any action could read one.
 */
function withoutBody(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('content-type');
  return new Request(request.url, { method: request.method, headers });
}

/** The busy page's answer: 503 whatever the render said, told to come back, kept by nobody, not indexed. */
function busyAnswer(response: Response): Response {
  const busy = new Response(response.body, { status: 503, headers: response.headers });
  busy.headers.set('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
  busy.headers.set('Cache-Control', 'no-store');
  busy.headers.set('X-Robots-Tag', 'noindex, nofollow');
  return busy;
}
