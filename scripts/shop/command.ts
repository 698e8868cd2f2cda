// The shape of one operator command (scripts/shop/commands/*.ts) and what each is given to run.
import type { Database } from '#db/client';
import type { PaymentGateway } from '#modules/payments';
import type { OptionSpec, OptionValues } from './args';

export interface CommandContext {
  db: Database;
  /** One line of output (JSON, one object per line). */
  out: (line: string) => void;
  /** Coin lifetimes from the settings; absent in tests, where the wallet's defaults apply. */
  lifetimes?: { paid: number; free: number };
  /** The payment providers (only `orders:refund` talks to them). */
  gateway?: PaymentGateway;
}

export interface ShopCommand {
  name: string;
  /** Its line in the usage (after the command name). */
  usage: string;
  options: OptionSpec;
  /** Whether it needs the payment providers (the entry starts them only then). */
  needsGateway?: boolean;
  run(context: CommandContext, input: { values: OptionValues; positionals: string[] }): Promise<void>;
}
