// Vite: React Router's plugin and Tailwind; tests configure themselves in vitest.config.ts.
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Alias } from 'vite';
import path from 'node:path';

/** React Router's production build (its `exports` name only the development one; decision 048). */
const reactRouterProduction = (file: string) =>
  path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production', file);

export default defineConfig(({ command, isSsrBuild }) => {
  const alias: Alias[] = [{ find: '~', replacement: path.resolve(import.meta.dirname, 'app') }];
  // The browser's bundle only: the server build keeps `react-router` external, and the server points
  // it to the same production build when it starts (server/production-modules.mjs).
  if (command === 'build' && !isSsrBuild) {
    alias.push(
      { find: /^react-router$/, replacement: reactRouterProduction('index.mjs') },
      { find: /^react-router\/dom$/, replacement: reactRouterProduction('dom-export.mjs') },
    );
  }
  return {
    plugins: [tailwindcss(), reactRouter()],
    resolve: { alias },
    build: {
      target: 'es2022',
      // React, React DOM and React Router in one file for the browser: every page loads all three, and
      // one file compresses better than several small ones (issue 17's pack page budget).
      rolldownOptions:
        command === 'build' && !isSsrBuild
          ? {
              output: {
                codeSplitting: {
                  groups: [
                    {
                      name: 'framework',
                      test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
                    },
                  ],
                },
              },
            }
          : undefined,
    },
  };
});
