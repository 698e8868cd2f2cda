// Every /admin route of the route config is kept from staff without its permission by some test: the
// permission matrix (tests/http/admin-permissions.test.ts) runs it, or tests/support/admin-routes.ts names
// the file that does. A new admin page that neither covers fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { ADMIN_MATRIX_ACTIONS, ADMIN_MATRIX_PAGES, ADMIN_ROUTES_TESTED_ELSEWHERE } from '#tests/admin-routes';
import routes from './routes';

/** Each route's full path as written ('/admin/shipping/:requestId'), layouts and prefixes joined. */
function routePaths(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, '/') : parent;
    const here = entry.path || entry.index ? [own || '/'] : [];
    return [...here, ...routePaths(entry.children ?? [], own)];
  });
}

const segmentsOf = (p: string) => p.split('/').filter(Boolean);

/** Whether a concrete URL ('/admin/orders/0000…?x=1') is served by a route pattern, and how specifically. */
function staticMatch(pattern: string, url: string): number | undefined {
  const want = segmentsOf(pattern);
  const got = segmentsOf(url.split('?')[0]!);
  if (want.length !== got.length) return undefined;
  let statics = 0;
  for (const [i, segment] of want.entries()) {
    if (segment.startsWith(':')) continue;
    if (segment !== got[i]) return undefined;
    statics++;
  }
  return statics;
}

/** The route that serves a URL, as the router picks it: the match with the most static segments. */
function routeOf(url: string, patterns: string[]): string | undefined {
  let best: { pattern: string; statics: number } | undefined;
  for (const pattern of patterns) {
    const statics = staticMatch(pattern, url);
    if (statics !== undefined && (!best || statics > best.statics)) best = { pattern, statics };
  }
  return best?.pattern;
}

const adminRoutes = routePaths(routes).filter((p) => p === '/admin' || p.startsWith('/admin/'));
const matrixUrls = [...ADMIN_MATRIX_PAGES.map(([url]) => url), ...ADMIN_MATRIX_ACTIONS.map(([url]) => url)];

describe('the admin routes’ permission tests', () => {
  it('reads the admin routes from the route config', () => {
    // The walk itself: index, prefix, nested and top-level routes are all found.
    expect(adminRoutes).toContain('/admin');
    expect(adminRoutes).toContain('/admin/shipping/:requestId');
    expect(adminRoutes).toContain('/admin/shipping/labels.csv');
    expect(adminRoutes).toContain('/admin/join');
    expect(adminRoutes.length).toBeGreaterThan(30);
  });

  it('covers every /admin route by the permission matrix or by a named test file', () => {
    const inMatrix = new Set(matrixUrls.map((url) => routeOf(url, adminRoutes)));
    const elsewhere = new Set(ADMIN_ROUTES_TESTED_ELSEWHERE.map((e) => e.route));
    const uncovered = adminRoutes.filter((route) => !inMatrix.has(route) && !elsewhere.has(route));
    expect(
      uncovered,
      'add each to the matrix or to ADMIN_ROUTES_TESTED_ELSEWHERE (tests/support/admin-routes.ts)',
    ).toEqual([]);
  });

  it('lists no matrix URL that no route serves, and nothing elsewhere that the matrix runs or that is gone', () => {
    expect(matrixUrls.filter((url) => !routeOf(url, adminRoutes))).toEqual([]);
    const inMatrix = new Set(matrixUrls.map((url) => routeOf(url, adminRoutes)));
    for (const { route } of ADMIN_ROUTES_TESTED_ELSEWHERE) {
      expect(adminRoutes, `${route} is not a route of app/routes.ts`).toContain(route);
      expect(inMatrix.has(route), `${route} is in the matrix already`).toBe(false);
    }
  });

  it('names, for each route tested elsewhere, a test file that requests that route', () => {
    const root = path.resolve(import.meta.dirname, '..');
    for (const { route, test } of ADMIN_ROUTES_TESTED_ELSEWHERE) {
      const file = path.join(root, test);
      expect(fs.existsSync(file), `${test} (for ${route})`).toBe(true);
      // The route's path up to its first parameter ('/admin/shipping/' for '/admin/shipping/:requestId').
      const literal = route.split(':')[0]!;
      const quoted = new RegExp(`['\`]${literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      expect(fs.readFileSync(file, 'utf8'), `${test} requests ${route}`).toMatch(quoted);
    }
  });
});
