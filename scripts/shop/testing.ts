// Test kit of the operators' command line: runs a command line on a test database with the test
// settings and reads its output lines as JSON. Tests only.
import type { Database } from '#db/client';
import type { PaymentGateway } from '#modules/payments';
import { TEST_RULES } from '#tests/fixtures';
import { runAdminCommand } from './run';

/**
 * A `run(...args)` for a test file; the database and the payment providers are read at each run.
 * @example const run = commandRunner(() => handle.db, () => gateway); const [granted] = await run('coins:grant', …)
 */
export function commandRunner(db: () => Database, gateway: () => PaymentGateway | undefined = () => undefined) {
  return async (...args: string[]): Promise<Record<string, unknown>[]> => {
    const lines: string[] = [];
    await runAdminCommand(db(), args, (line) => lines.push(line), {
      gateway: gateway(),
      paymentRules: TEST_RULES.payments,
      lifetimes: TEST_RULES.coinLifetimes,
    });
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  };
}
