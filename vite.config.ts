// Vite: React Router's plugin and Tailwind; tests configure themselves in vitest.config.ts.
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import path from 'node:path';

/**
 * The shell: the app's modules that the root and the members' layouts load, whichever page it is. They go in one
 * file (the `shell` group below) instead of ~25 small shared chunks, so a page starts with ~10 scripts instead of
 * ~30 (issue 32 item 4: each module preload and each module record costs start-up time on a phone). The files
 * a route loads on top stay per route. Decided in docs/decisions/080.
 */
const SHELL_ROOTS = [
  'root.tsx',
  ...['top', 'default', 'ranking', 'gacha-detail', 'gacha-result'].map((l) => `layouts/${l}.tsx`),
].map((file) => path.resolve(import.meta.dirname, 'app', file));

function shellOf(moduleId: string, getModuleInfo: Rolldown.ChunkingContext['getModuleInfo']): boolean {
  const file = (id: string) => id.split('?')[0]!;
  if (SHELL_ROOTS.includes(file(moduleId)) || /node_modules/.test(moduleId)) return false;
  const seen = new Set<string>();
  const waiting = [moduleId];
  while (waiting.length > 0) {
    const id = waiting.pop()!;
    for (const importer of getModuleInfo(id)?.importers ?? []) {
      if (SHELL_ROOTS.includes(file(importer))) return true;
      if (!seen.has(importer)) {
        seen.add(importer);
        waiting.push(importer);
      }
    }
  }
  return false;
}

const reactRouterProduction = (file: string) =>
  path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production', file);

/**
 * React Router's production build for the browser's bundle (its `exports` name only the development one;
 * decision 048). The server bundle keeps `react-router` external, and the server points it to the same
 * production build when it starts (server/production-modules.mjs), so the process holds one copy.
 */
function reactRouterProductionInTheBrowser(): Plugin {
  const files: Record<string, string> = {
    'react-router': reactRouterProduction('index.mjs'),
    'react-router/dom': reactRouterProduction('dom-export.mjs'),
  };
  return {
    name: 'oripa:react-router-production-in-the-browser',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    enforce: 'pre',
    resolveId(source) {
      return files[source] ?? null;
    },
  };
}

export default defineConfig({
  plugins: [reactRouterProductionInTheBrowser(), tailwindcss(), reactRouter()],
  resolve: { alias: [{ find: '~', replacement: path.resolve(import.meta.dirname, 'app') }] },
  build: { target: 'es2022' },
  environments: {
    client: {
      build: {
        // React, React DOM and React Router in one file for the browser: every page loads all three, and
        // one file compresses better than several small ones (issue 17's pack page budget); the shell in
        // another (decision 080). The browser's bundle only: the server's modules stay as they are.
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  debugName: 'shell',
                  name: (moduleId: string, ctx: Rolldown.ChunkingContext) =>
                    shellOf(moduleId, (id) => ctx.getModuleInfo(id)) ? 'shell' : null,
                },
                {
                  name: 'framework',
                  // Before the shell, which would otherwise take the framework's modules it imports.
                  priority: 1,
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
                },
              ],
            },
          },
        },
      },
    },
  },
});
