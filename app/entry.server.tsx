// Server rendering: streams HTML (whole documents for bots), with the response's CSP nonce; the page's
// scripts load after its first paint.
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, isRouteErrorResponse, type EntryContext, type RouterContextProvider } from 'react-router';
import { BootScriptContext, NonceContext } from './nonce';
import { ConfirmDialog } from './components/gacha/ConfirmDialog';
import { ServerConfirmDialog } from './components/gacha/dialog-loader';
import { chunkGuardBootScript } from './lib/chunk-guard-boot';
import { CHUNK_RELOAD_GUARD_MS } from './lib/client-recovery';
import { shopRequestContext } from '#server/context';
import { scriptsAfterPaint } from './controllers/scripts-after-paint.server';
import { isDatabaseUnavailable } from '#db/unavailable';

/** The reload guard's inline script, the same for every page (root.tsx writes it into <head>). */
const BOOT_SCRIPT = chunkGuardBootScript(CHUNK_RELOAD_GUARD_MS);

export const streamTimeout = 10_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const shop = loadContext.get(shopRequestContext);
  const nonce = shop.nonce;
  // The database went away under a loader, an action or a guard: the server answers the busy page in
  // place of this one (server/app.ts, decision 054), so nothing is rendered for nobody.
  if (shop.faults?.databaseUnavailable && !shop.busy) return Promise.resolve(new Response(null, { status: 503 }));
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <BootScriptContext.Provider value={BOOT_SCRIPT}>
          <ServerConfirmDialog.Provider value={ConfirmDialog}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </ServerConfirmDialog.Provider>
        </BootScriptContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // The page's scripts load after its first paint (decision 049).
          const body = scriptsAfterPaint();
          body.once('finish', () => clearTimeout(timeout));
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, onShellError rejects and Hono logs.
          if (shellRendered) shop.services.logger.error({ reqId: shop.requestId, err: error }, 'render error');
        },
      },
    );
  });
}

/** Errors thrown by loaders, actions and middleware: logged once with the request id. */
export function handleError(
  error: unknown,
  { request, context }: { request: Request; context: RouterContextProvider },
) {
  if (request.signal.aborted) return;
  const shop = context.get(shopRequestContext);
  if (isDatabaseUnavailable(error)) {
    // Noted for the server, which answers the busy page (503); one line, not a stack per request.
    if (shop.faults) shop.faults.databaseUnavailable = true;
    shop.services.logger.warn(
      { reqId: shop.requestId, url: request.url, reason: databaseReason(error) },
      'database unavailable: the busy page answers',
    );
    return;
  }
  // 4xx answers (a bot posting to a page, an unknown path) are not errors of ours.
  if (isRouteErrorResponse(error) && error.status < 500) {
    shop.services.logger.debug({ reqId: shop.requestId, url: request.url, status: error.status }, 'refused request');
    return;
  }
  shop.services.logger.error({ reqId: shop.requestId, url: request.url, err: error }, 'application error');
}

/** The driver's words under Drizzle's wrapping (`connect ECONNREFUSED 127.0.0.1:5432`), for the log. */
function databaseReason(error: unknown): string {
  let deepest: unknown = error;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  return deepest instanceof Error ? deepest.message.slice(0, 200) : String(deepest).slice(0, 200);
}
