// The document, the route guards (server and client middleware), and the error page.
import { useEffect } from 'react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  createContext,
  isRouteErrorResponse,
  redirect,
  useLocation,
  useMatches,
  useNavigate,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import './app.css';
import { shopRequestContext, type ShopRequest } from '#server/context';
import { PERSONAL_JSON_ID, PERSONAL_JSON_MARKER } from '#modules/kernel/personal-holes';
import { useBootScript, useNonce } from './nonce';
import {
  evaluateNavigation,
  isNoindexPath,
  type ContentValidators,
  type InAppNotice,
} from '#modules/kernel/navigation';
import { AppLoadingOverlay } from './components/Spinner';
import { NotFoundView, NOT_FOUND_TITLE } from './components/NotFoundView';
import { BusyView, BUSY_TITLE } from './components/BusyView';
import { busy, isBusyError } from './lib/busy';
import { InAppBrowserNotice } from './components/InAppBrowserNotice';
import { MaintenanceBanner } from './components/MaintenanceBanner';
import { ClosureBanner } from './components/ClosureBanner';
import {
  canonicalUrl,
  composeDescription,
  composeTitle,
  pageDescriptionFromMatches,
  pageTitleFromMatches,
} from './lib/page-meta';
import { notFound, type NotFoundPayload } from './lib/not-found';
import { personalJsonText, rememberSite, type RootData } from './lib/root-data';
import { rememberSignedIn, forgetSignedIn, signedInOnClient } from './lib/client-session';
import { isChunkLoadError, isNewerBuildAvailable, startBuildPolling, reloadForChunkError } from './lib/client-recovery';
import { ChunkFailureView } from './components/ChunkFailureView';
import { trackAdParameters } from './lib/ad-tracking';
import { pushInvitationEventFromCookie } from './lib/analytics';
import { resolveGenre, genreOfGacha } from '#modules/gacha';
import { isStaffRole } from '#modules/identity';
import { contentOf, footerLineOf } from '#server/context';
import { balanceOf, genresOf } from './controllers/request-reads.server';
import { closureBannerLines, maintenanceEndText } from '#modules/shop';
import { unreadMailsOf } from './controllers/mailbox.server';
import { showsAdminLink } from './controllers/staff.server';

/** The in-app-browser notice the guard chose for this request, read by the root loader. */
const browserNoticeContext = createContext<InAppNotice | null>(null);

/** Server guard: content validation, auth, route rules, for the first request and every data request. */
const serverNavigationGuard: Route.MiddlewareFunction = async ({ request, context }) => {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  const { db, config } = shop.services;
  const site = {
    name: config.SITE_NAME,
    tagline: config.SITE_TAGLINE,
    origin: config.PUBLIC_ORIGIN,
    description: config.SITE_DESCRIPTION,
  };
  // The database is away (decision 054): the busy page, before any guard, loader or action reads it.
  if (shop.busy) throw busy(site);
  const validators: ContentValidators = {
    resolveGenre: (id) => resolveGenre(db, id),
    // The pack editor's preview of a draft (?preview=1) passes for staff; the page checks packs:write.
    genreOfGacha: (id) =>
      genreOfGacha(db, id, {
        draft: url.searchParams.get('preview') === '1' && isStaffRole(shop.member?.role),
      }),
    specialExists: async (id) => (await contentOf(shop.services).getPage(id)) !== null,
  };
  const decision = await evaluateNavigation({
    pathname: url.pathname,
    search: url.search,
    // The members' shell is a member's page: the route rules judge it as signed in.
    signedIn: shop.member !== null || shop.personalShell === true,
    userAgent: request.headers.get('user-agent'),
    validators,
    routeRedirects: config.ROUTE_REDIRECTS,
  });
  if (decision.type === 'redirect') throw redirect(decision.to, decision.status);
  if (decision.type === 'not-found') throw notFound(url.pathname, site);
  context.set(browserNoticeContext, decision.notice ?? null);
};

/** Client guard for later navigations: a newer build means a full load; then auth, ad tracking, route rules. */
const clientNavigationGuard: Route.ClientMiddlewareFunction = async ({ request }) => {
  const url = new URL(request.url);
  if (isNewerBuildAvailable() && request.method === 'GET') {
    window.location.assign(url.pathname + url.search + url.hash);
    await new Promise(() => undefined); // the page is going away
  }
  if (request.method !== 'GET') {
    forgetSignedIn();
    return;
  }
  const signedIn = signedInOnClient();
  if (signedIn === null) return; // just after a submission: the server's guard answers this one
  const decision = await evaluateNavigation({
    pathname: url.pathname,
    search: url.search,
    signedIn,
    userAgent: navigator.userAgent,
  });
  if (decision.type === 'redirect') throw redirect(decision.to);
  const adTarget = trackAdParameters(url.pathname, url.search, signedIn);
  if (adTarget) throw redirect(adTarget);
};

export const middleware: Route.MiddlewareFunction[] = [serverNavigationGuard];
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [clientNavigationGuard];

export async function loader({ context }: Route.LoaderArgs): Promise<RootData> {
  const shop = context.get(shopRequestContext);
  const [genres, balance, maintenance, unreadMails, footerNote, adminLink] = await Promise.all([
    genresOf(shop),
    balanceOf(shop),
    shop.services.maintenance.current(),
    unreadMailsOf(shop),
    footerLineOf(shop.services),
    showsAdminLink(shop),
  ]);
  const shared = sharedRootData(shop, genres, maintenance, footerNote, context.get(browserNoticeContext));
  // The members' shell (decision 077): a member's shape with no member's values; the server fills them.
  if (shop.personalShell) {
    return {
      ...shared,
      member: { id: '', name: '', role: 'user' },
      adminLink: false,
      wallet: { paid: 0, free: 0, total: 0 },
      unreadMails: 0,
      personal: 'shell',
    };
  }
  return {
    ...shared,
    member: shop.member ? { id: shop.member.id, name: shop.member.name, role: shop.member.role } : null,
    adminLink,
    wallet: balance ? { paid: balance.paid, free: balance.free, total: balance.total } : null,
    unreadMails,
  };
}

/** What the root answers alike for visitors, members and the members' shell. */
function sharedRootData(
  shop: ShopRequest,
  genres: RootData['genres'],
  maintenance: Awaited<ReturnType<ShopRequest['services']['maintenance']['current']>>,
  footerNote: string,
  notice: InAppNotice | null,
) {
  const { config, buildId } = shop.services;
  return {
    site: {
      name: config.SITE_NAME,
      tagline: config.SITE_TAGLINE,
      origin: config.PUBLIC_ORIGIN,
      description: config.SITE_DESCRIPTION,
    },
    buildId,
    buildPollSeconds: config.BUILD_POLL_SECONDS,
    genres,
    notice,
    footerNote,
    maintenance: maintenance.on
      ? {
          message: maintenance.message,
          endsAtText: maintenance.endsAt ? maintenanceEndText(maintenance.endsAt) : null,
        }
      : null,
    closure: maintenance.closure ? closureBannerLines(maintenance.closure) : null,
  };
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const bootScript = useBootScript();
  const location = useLocation();
  const root = useRouteLoaderData('root') as RootData | undefined;
  const error = useRouteError();
  const site = rememberSite(
    root?.site ?? (isRouteErrorResponse(error) ? (error.data as NotFoundPayload | undefined)?.site : undefined),
  );
  return (
    <html lang="ja">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#ef3a6e" />
        <meta name="format-detection" content="telephone=no" />
        {site ? <link rel="canonical" href={canonicalUrl(site.origin, location.pathname, location.search)} /> : null}
        {isNoindexPath(location.pathname) || isBusyError(error) ? (
          <meta name="robots" content="noindex, nofollow" />
        ) : null}
        {/* Before the module script: the reload guard for a page whose code fails to load (lib/chunk-guard-boot.ts).
            Its text comes from the server render only (BootScriptContext); hydration keeps the element as sent. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: bootScript }} />
        <Meta />
        <Links />
      </head>
      <body>
        {/* A members' shell (decision 077): the server puts this member's data here; it is read before hydrating
            and kept as sent. Not a script that runs (application/json), so the page's CSP is unchanged. */}
        {root?.personal === 'shell' ? (
          <script
            type="application/json"
            id={PERSONAL_JSON_ID}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{
              __html: import.meta.env.SSR ? PERSONAL_JSON_MARKER : (personalJsonText() ?? ''),
            }}
          />
        ) : null}
        <AppLoadingOverlay />
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  const location = useLocation();
  const navigate = useNavigate();
  rememberSignedIn(loaderData.member !== null, loaderData);

  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    // The first page load: client middleware has not run, so the ad-tracking rule runs here.
    const target = trackAdParameters(window.location.pathname, window.location.search, loaderData.member !== null);
    if (target) navigate(target, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // The friend-invitation event, once, on the first page after a sign-up that attached an invitation.
  useEffect(() => void pushInvitationEventFromCookie(), [location.key]);
  useEffect(
    () => startBuildPolling(loaderData.buildId, loaderData.buildPollSeconds),
    [loaderData.buildId, loaderData.buildPollSeconds],
  );

  const title = composeTitle({
    pathname: location.pathname,
    pageTitle: pageTitleFromMatches(matches),
    siteName: loaderData.site.name,
    tagline: loaderData.site.tagline,
  });
  // React hoists <title> and <meta> into the head, and updates them on client navigations.
  const description = composeDescription(pageDescriptionFromMatches(matches), loaderData.site.description);
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {loaderData.maintenance ? <MaintenanceBanner maintenance={loaderData.maintenance} /> : null}
      {loaderData.closure ? <ClosureBanner closure={loaderData.closure} /> : null}
      {loaderData.notice ? <InAppBrowserNotice kind={loaderData.notice} /> : <Outlet />}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  const root = useRouteLoaderData('root') as RootData | undefined;
  // A 404's and the busy page's errors carry the site, as no loader ran for them.
  const payload = isRouteErrorResponse(error) ? (error.data as NotFoundPayload | undefined) : undefined;
  const site = rememberSite(root?.site ?? payload?.site);
  const siteName = site?.name;
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    if (reloadForChunkError(error)) return;
    if (isBusyError(error)) return; // the shop said so itself: not an error of the page
    if (!isRouteErrorResponse(error) || error.status >= 500) console.error('Application error:', error);
  }, [error]);
  if (isBusyError(error)) {
    return (
      <>
        <title>{siteName ? `${BUSY_TITLE} | ${siteName}` : BUSY_TITLE}</title>
        {site?.description ? <meta name="description" content={site.description} /> : null}
        <BusyView retryHref={location.pathname + location.search} />
      </>
    );
  }
  // A page's code that could not be fetched, past the reload guard: a reload, not "page not found", helps.
  if (isChunkLoadError(error)) return <ChunkFailureView siteName={siteName} />;
  return (
    <>
      <title>{siteName ? `${NOT_FOUND_TITLE} | ${siteName}` : NOT_FOUND_TITLE}</title>
      {site?.description ? <meta name="description" content={site.description} /> : null}
      <NotFoundView />
    </>
  );
}
