// Production-only module resolution, registered before anything imports React Router (start.ts,
// the benchmarks): see production-modules.mjs.
import { register } from 'node:module';

if (process.env.NODE_ENV === 'production') register('./production-modules.mjs', import.meta.url);
