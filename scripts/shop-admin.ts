// The operators' command line moved to scripts/shop/ (entry index.ts, one file per command); this
// name stays for code that runs commands in-process (tests/http/draw-api.test.ts).
export { runAdminCommand, UsageError } from './shop/run';
