// Runs one operator command on a database: finds it by name, reads its options, runs it. The entry
// (index.ts), the running shop (server/operator-route.ts) and tests call this; commands/ holds one
// file per command.
import { readFile, writeFile } from 'node:fs/promises';
import type { Database } from '#db/client';
import { commandLineOperator } from '#modules/admin';
import { RefusalError } from '#modules/kernel';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { parseCommandLine, UsageError } from './args';
import { OFFLINE_COMMANDS, SHOP_COMMANDS } from './commands';
import type { CommandContext, CommandFiles, ShopCommand } from './command';

export { UsageError } from './args';

export const USAGE = [
  '使い方: npm run shop -- <command> [options]',
  ...[...SHOP_COMMANDS, ...OFFLINE_COMMANDS].map((c) => `  ${c.name}${c.usage ? ` ${c.usage}` : ''}`),
].join('\n');

/** The operator's own file system (paths relative to where the command line runs). */
export const localFiles: CommandFiles = {
  read: (path) => readFile(path, 'utf8'),
  write: (path, text) => writeFile(path, text),
};

/** The command named first on the line, or a UsageError. @example findCommand('coins:grant').needsGateway */
export function findCommand(name: string | undefined): ShopCommand {
  if (!name || name.startsWith('-')) throw new UsageError('コマンドを指定してください。');
  const command = SHOP_COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`不明なコマンドです: ${name}`);
  return command;
}

/**
 * Runs `argv` (the command, then its arguments); each output line goes to `out`. Answers the exit
 * code (0, or 1 when `invariants` finds a violation); a refused line throws a UsageError in Japanese.
 * Without `operator` the command line acts (commandLineOperator), without `files` the local files.
 * @example await runAdminCommand(db, ['coins:grant', '--member', id, '--amount', '300', '--reason', 'お詫び'], console.log, { lifetimes })
 */
export async function runAdminCommand(
  db: Database,
  argv: string[],
  out: (line: string) => void,
  settings: Pick<CommandContext, 'lifetimes' | 'gateway' | 'paymentRules' | 'addressKeyring' | 'copyEmbedded'> &
    Partial<Pick<CommandContext, 'operator' | 'files' | 'beacon'>>,
): Promise<number> {
  const command = findCommand(argv[0]);
  try {
    const context: CommandContext = {
      db,
      out,
      operator: settings.operator ?? commandLineOperator(),
      files: settings.files ?? localFiles,
      lifetimes: settings.lifetimes,
      gateway: settings.gateway,
      paymentRules: settings.paymentRules,
      addressKeyring: settings.addressKeyring,
      copyEmbedded: settings.copyEmbedded,
      beacon: settings.beacon,
    };
    return (await command.run(context, parseCommandLine(argv.slice(1), command.options))) ?? 0;
  } catch (error) {
    // A module's refusal (a pack's lifecycle, a grant's key) reads as the one catalogue words it.
    if (error instanceof RefusalError)
      throw new UsageError(describeRefusal(error.refusal as RefusalError<RefusalCode>['refusal']).message);
    throw error;
  }
}
