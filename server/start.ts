// The process entry (`npm start`, `npm run dev`). React picks its production or development build
export {};
// from NODE_ENV when first imported, so NODE_ENV is settled here before anything imports React.
const development = process.argv.includes('--dev');
process.env.NODE_ENV ??= development ? 'development' : 'production';

// React Router's production build (production-modules.mjs), before anything imports it.
await import('./production');
const { runFromCommandLine } = await import('./main');
await runFromCommandLine(development);
