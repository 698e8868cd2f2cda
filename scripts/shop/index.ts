// The operators' command line (`npm run shop -- <command>`; `--help` lists the commands): settings as
// the server reads them (DATABASE_URL, DATA_DIR), the database, one command, and exit codes — 0 done,
// 1 failed (or an invariant broken), 2 a refused command line. On the embedded database, which admits
// one process, a running shop runs the command itself (DATA_DIR/operator.json names it); otherwise the
// command line claims the database for its run (docs/decisions/020). A command that needs no database
// (media:upload-local) runs here, with these settings, whatever holds the database.
import { loadConfig, ConfigError, type ShopConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { openDatabase } from '#db/client';
import { claimEmbeddedDatabase, EmbeddedDatabaseBusy, liveHolder, type OperatorClaim } from '#server/operator-file';
import { parseCommandLine } from './args';
import { findCommand, runAdminCommand, UsageError, USAGE } from './run';
import { runThroughShop, ShopUnreachable } from './through-shop';
import type { OfflineShopCommand, ShopCommand } from './command';
import { OFFLINE_COMMANDS } from './commands';
import { openMediaStore } from '#server/media/index';

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

/** The command line's options and the settings, or null once the refusal is printed (exit code 2). */
function readInputs(
  options: Parameters<typeof parseCommandLine>[1],
): { parsed: ReturnType<typeof parseCommandLine>; config: ShopConfig } | null {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv.slice(1), options);
  } catch (error) {
    refuse((error as Error).message);
    return null;
  }
  try {
    return { parsed, config: loadConfig(process.env) };
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    process.exitCode = 2;
    return null;
  }
}

async function main() {
  const offline = OFFLINE_COMMANDS.find((c) => c.name === argv[0]);
  if (offline) return runOffline(offline);
  let command: ShopCommand;
  try {
    command = findCommand(argv[0]);
  } catch (error) {
    return refuse((error as Error).message);
  }
  // Options are read once here too, so a malformed line is refused before the database opens.
  const inputs = readInputs(command.options);
  if (!inputs) return;
  const { parsed, config } = inputs;
  if (config.DATABASE_URL) return runHere(config, command);
  // The embedded database: through the running shop, or claimed for this run.
  const running = liveHolder(config.dataDir);
  if (running?.holder === 'server') return runInShop(running, command, parsed, config);
  let claim: OperatorClaim;
  try {
    claim = claimEmbeddedDatabase(config.dataDir, 'command-line', (held) =>
      held.holder === 'server'
        ? ''
        : `別の運用コマンド（pid ${held.pid}）が組み込みデータベースを使っています。終わってから、もう一度実行してください。`,
    );
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseBusy)) throw error;
    // A server that started meanwhile runs it; another command line must finish first.
    if (error.holder.holder === 'server') return runInShop(error.holder, command, parsed, config);
    console.error(`エラー: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  try {
    await runHere(config, command);
  } finally {
    claim.release();
  }
}

/** Runs a command that needs no database, in this process, with the media store these settings name. */
async function runOffline(command: OfflineShopCommand) {
  const inputs = readInputs(command.options);
  if (!inputs) return;
  const { parsed, config } = inputs;
  const media = await openMediaStore(config);
  try {
    process.exitCode =
      (await command.run({ out: (line) => console.log(line), media, dataDir: config.dataDir }, parsed)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) refuse(error.message);
    else {
      console.error(`エラー: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
  } finally {
    await media.close();
  }
}

/** Runs the command inside the running shop and prints what it answers. */
async function runInShop(
  held: Parameters<typeof runThroughShop>[0],
  command: ShopCommand,
  parsed: ReturnType<typeof parseCommandLine>,
  config: ShopConfig,
) {
  try {
    const answer = await runThroughShop(held, argv, command.inputFiles?.(parsed) ?? [], config.dataDir);
    for (const line of answer.lines) console.log(line);
    if (answer.error?.kind === 'usage') refuse(answer.error.message);
    else if (answer.error) console.error(`エラー: ${answer.error.message}`);
    process.exitCode = answer.exitCode;
  } catch (error) {
    if (!(error instanceof ShopUnreachable)) throw error;
    console.error(`エラー: ${error.message}`);
    process.exitCode = 1;
  }
}

/** Opens the database in this process and runs the command on it. */
async function runHere(config: ShopConfig, command: ShopCommand) {
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
        addressKeyring: config.addressKeyring,
        copyEmbedded: database.copyEmbedded,
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
