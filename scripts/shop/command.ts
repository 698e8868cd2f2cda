// The shape of one operator command (scripts/shop/commands/*.ts) and what each is given to run.
import type { Database } from '#db/client';
import type { CoinLifetimes } from '#modules/wallet';
import type { PaymentGateway, ShopPaymentRules } from '#modules/payments';
import type { AddressKeyring } from '#modules/shipping';
import type { OptionSpec, OptionValues } from './args';

export interface CommandContext {
  db: Database;
  /** One line of output (JSON, one object per line). */
  out: (line: string) => void;
  /** Coin lifetimes from the settings (PAID_COIN_EXPIRY_DAYS, FREE_COIN_EXPIRY_DAYS): every caller passes them. */
  lifetimes: CoinLifetimes;
  /** The payment providers (only `orders:refund` talks to them). */
  gateway?: PaymentGateway;
  /** The shop's payment rules from the settings, given with the providers. */
  paymentRules?: ShopPaymentRules;
  /** The address keys from the settings (ADDRESS_ENCRYPTION_KEYS; only `addresses:rekey` uses them). */
  addressKeyring?: AddressKeyring;
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
