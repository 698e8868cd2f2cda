// Keeps long-open tabs working across deployments: a failed chunk load reloads the page (at most
// once per path within 10 s), and a newer build found by polling makes the next navigation a full load.

import { CHUNK_RELOAD_STORAGE_KEY } from './chunk-guard-boot';

/** Specification section 9: the reload guard. */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
const RELOAD_STORAGE_KEY = CHUNK_RELOAD_STORAGE_KEY;

const CHUNK_ERROR_PATTERNS = [
  /Unable to preload CSS/i,
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Loading chunk [\w-]+ failed/i,
  /Outdated Optimize Dep/i,
];

/** @example isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css')) === true */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message));
}

/**
 * Decides whether to reload for a chunk error on this path, and records the reload.
 * @example shouldReloadForChunkError('/shop', Date.now(), sessionStorage)
 */
export function shouldReloadForChunkError(
  path: string,
  now: number,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
): boolean {
  let reloads: Record<string, number> = {};
  try {
    reloads = JSON.parse(storage.getItem(RELOAD_STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    reloads = {};
  }
  const last = reloads[path];
  if (typeof last === 'number' && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  for (const [key, at] of Object.entries(reloads)) if (now - at > CHUNK_RELOAD_GUARD_MS) delete reloads[key];
  reloads[path] = now;
  try {
    storage.setItem(RELOAD_STORAGE_KEY, JSON.stringify(reloads));
  } catch {
    // storage full or blocked: reloading once more is still better than a broken page
  }
  return true;
}

/** A route module (a page's code) that could not be fetched; the root error boundary shows {@link ChunkFailure}'s words. */
export class RouteModuleLoadError extends Error {
  constructor(module: string) {
    super(`Failed to fetch dynamically imported module: ${module}`);
    this.name = 'RouteModuleLoadError';
  }
}

/** Reloads the page for a chunk error when the guard allows; answers whether it did. */
export function reloadForChunkError(error: unknown): boolean {
  if (typeof window === 'undefined' || !isChunkLoadError(error)) return false;
  // Decided already, for the page being opened, when React Router reported it (below).
  if (error instanceof RouteModuleLoadError) return false;
  if (!shouldReloadForChunkError(window.location.pathname, Date.now(), window.sessionStorage)) return false;
  window.location.reload();
  return true;
}

/** What React Router logs, in its own words, just before it reloads for a route module that failed to load. */
const ROUTER_RELOAD_MESSAGE = /^Error loading route module `([^`]*)`, reloading page/;

type RouterWindow = Window & {
  __reactRouterDataRouter?: {
    state: { navigation: { location?: { pathname: string; search: string; hash: string } } };
  };
};

/**
 * React Router 7 (lib/dom/ssr/routeModules.ts, loadRouteModule) catches a failed `import()` of a route
 * module, logs 'Error loading route module `…`, reloading page...' with console.error and then calls
 * window.location.reload() itself, on every failure, past any guard (three reloads in 6 s were seen).
 * It offers no option for it, and location.reload cannot be replaced, so the log line is the hook: on
 * that line this throws, which skips the router's reload; the failure then reaches the route's error
 * boundary as an ordinary error. Before throwing, the guard decides: the page the member was going to is
 * loaded in full once per path within 10 s (a new build's HTML names the new chunks); past that the
 * error boundary shows a message with a reload button instead.
 */
export function routeRouterReloadsThroughGuard() {
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const match = typeof args[0] === 'string' ? ROUTER_RELOAD_MESSAGE.exec(args[0]) : null;
    if (!match) return original(...args);
    const error = new RouteModuleLoadError(match[1]!);
    original('Route module failed to load:', match[1]);
    const target = (window as RouterWindow).__reactRouterDataRouter?.state.navigation.location ?? window.location;
    if (shouldReloadForChunkError(target.pathname, Date.now(), window.sessionStorage)) {
      const href = target.pathname + target.search + target.hash;
      if (href === window.location.pathname + window.location.search + window.location.hash) window.location.reload();
      else window.location.assign(href);
    }
    throw error;
  };
}

/** Vite reports failed preloads ('Unable to preload CSS …') as a vite:preloadError event. */
export function installChunkErrorRecovery() {
  routeRouterReloadsThroughGuard();
  window.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (reloadForChunkError(payload ?? new Error('Unable to preload CSS'))) event.preventDefault();
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (reloadForChunkError(event.reason)) event.preventDefault();
  });
}

// --- new builds -----------------------------------------------------------------------------

let newerBuildFound = false;

/** True once polling has seen a build other than the one this page was loaded from. */
export const isNewerBuildAvailable = () => newerBuildFound;

/**
 * Polls GET /builds/latest.json?<timestamp> every `seconds` and when the tab becomes visible.
 * @example const stop = startBuildPolling('a1b2c3', 300)
 */
export function startBuildPolling(
  currentBuildId: string,
  seconds: number,
  fetchImpl: typeof fetch = fetch,
): () => void {
  let stopped = false;
  const check = async () => {
    if (stopped || newerBuildFound || document.visibilityState === 'hidden') return;
    try {
      const response = await fetchImpl(`/builds/latest.json?${Date.now()}`, { cache: 'no-store' });
      if (!response.ok) return;
      const latest = (await response.json()) as { id?: string };
      if (latest.id && latest.id !== currentBuildId) {
        newerBuildFound = true;
        // Fetching the meta file warms the cache for the full load that follows.
        void fetchImpl(`/builds/meta/${latest.id}.json`).catch(() => undefined);
      }
    } catch {
      // offline: try again at the next tick
    }
  };
  const timer = window.setInterval(check, seconds * 1000);
  const onVisible = () => void check();
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    stopped = true;
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
