// A module resolution hook (node:module register) for production: React Router publishes only its
// development build to Node (its package.json's `exports`), with its development warnings on. The
// production build sits beside it (dist/production); every import of the package, from the server and
// from the built app alike, is pointed there, so the process holds one copy (decision 048).
const DEVELOPMENT = '/node_modules/react-router/dist/development/';
const PRODUCTION = '/node_modules/react-router/dist/production/';

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes(DEVELOPMENT)) return { ...resolved, url: resolved.url.replace(DEVELOPMENT, PRODUCTION) };
  return resolved;
}
