// Production-only module resolution, registered before anything imports React Router (start.ts,
// the benchmarks): see production-modules.mjs. The hook is a file of its own (node:module runs it on
// its loader thread), found from the project folder, so the compiled server (build/server-runtime/)
// registers the same file as the TypeScript sources.
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRootOf } from '#db/project-root';

if (process.env.NODE_ENV === 'production') {
  register(pathToFileURL(path.join(projectRootOf(import.meta.url), 'server', 'production-modules.mjs')).href);
}
