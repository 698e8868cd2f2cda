// Run by runner.db.test.ts in a child process: start the runner, run a job, stop, close the database, and
// return from the script. If stop() left a timer, socket or pool open, the process would not exit.
import { openDatabase } from '#db/client';
import { createJobRunner } from './runner';
import { capturingLogger } from './test-support';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must name a scratch folder');
const { logger } = capturingLogger();
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
const runner = createJobRunner({
  database,
  logger,
  config: { DATABASE_URL: process.env.DATABASE_URL || undefined },
  pollingIntervalSeconds: 0.5,
});
runner.register({ name: 'test.exit-check', cron: '0 3 * * *', handler: async () => ({ processed: 1 }) });
runner.register({
  name: 'test.exit-check-local',
  cron: '*/5 * * * *',
  scope: 'instance',
  handler: async () => ({ processed: 1 }),
});
await runner.start();
const summary = await runner.runNow('test.exit-check');
await runner.stop();
await database.close();
console.log(JSON.stringify({ stopped: true, processed: summary.processed }));
