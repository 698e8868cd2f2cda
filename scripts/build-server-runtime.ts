// Part of `npm run build`: compiles the server's TypeScript (server/start.ts and everything it imports
// from server/, db/, modules/ and app/) into plain JavaScript in build/server-runtime/, which `npm start`
// runs with node alone. A TypeScript loader in production cost a parent process, an esbuild service and
// the transformed sources with their source maps in memory: about 120 MB, and seconds of start
// (docs/decisions/047). Packages stay in node_modules (not bundled). esbuild comes with tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(projectRoot, 'build', 'server-runtime');

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: projectRoot,
  entryPoints: { start: 'server/start.ts' },
  outdir,
  bundle: true,
  // server/start.ts settles NODE_ENV before it imports the rest (React reads it once): code splitting
  // keeps that order, since the rest is a chunk that start.js imports only after setting it.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`server runtime: ${Object.keys(result.metafile.outputs).length} files, ${Math.round(bytes / 1024)} KiB`);
