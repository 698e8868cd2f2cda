// The operators' command line (`npm run shop -- <command>`; `--help` lists the commands): settings as
// the server reads them (DATABASE_URL, DATA_DIR), the database, one command, and exit codes — 0 done,
// 1 failed (or an invariant broken), 2 a refused command line. On the embedded database, stop the
// server first: PGlite allows one process at a time.
import { loadConfig, ConfigError } from '#server/config';
import { createLogger } from '#server/logger';
import { openDatabase } from '#db/client';
import { parseCommandLine } from './args';
import { findCommand, runAdminCommand, UsageError, USAGE } from './run';

const argv = process.argv.slice(2);
const refuse = (message: string) => {
  console.error(`エラー: ${message}\n\n${USAGE}`);
  process.exitCode = 2;
};

if (argv.length === 0 || ['--help', '-h', 'help'].includes(argv[0]!)) {
  console.log(USAGE);
  process.exitCode = argv.length ? 0 : 2;
} else {
  await main();
}

async function main() {
  let command;
  try {
    command = findCommand(argv[0]);
    // Options are read once here too, so a malformed line is refused before the database opens.
    parseCommandLine(argv.slice(1), command.options);
  } catch (error) {
    return refuse((error as Error).message);
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    process.exitCode = 2;
    return;
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    migrationUrl: config.DATABASE_MIGRATION_URL,
    dataDir: config.dataDir,
    poolSize: 2,
  });
  try {
    await database.migrate();
    // Only a refund talks to a provider; the local stand-ins would not know the shop's payments.
    // Imported only then: the providers' SDKs take seconds to load.
    const payments = command.needsGateway
      ? await (
          await import('#server/payments')
        ).createPaymentServices({ config, db: database.db, logger: createLogger('warn') })
      : undefined;
    try {
      process.exitCode = await runAdminCommand(database.db, argv, (line) => console.log(line), {
        lifetimes: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
        gateway: payments?.gateway,
        paymentRules: payments?.rules,
      });
    } finally {
      await payments?.close();
    }
  } catch (error) {
    if (error instanceof UsageError) refuse(error.message);
    else {
      console.error(error);
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
}
