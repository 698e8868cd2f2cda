// The shape of one operator command (scripts/shop/commands/*.ts), what each is given to run, and how
// it reads an operator action's outcome; and the few commands that need no database at all.
import type { Database } from '#db/client';
import type { Operator } from '#modules/admin';
import { isRefusal, RefusalError, type MediaStore, type Refusal } from '#modules/kernel';
import type { CoinLifetimes } from '#modules/wallet';
import type { BeaconPublishTerms } from '#modules/gacha';
import type { PaymentGateway, ShopPaymentRules } from '#modules/payments';
import type { AddressKeyring } from '#modules/shipping';
import type { OptionSpec, OptionValues } from './args';
import type { EmbeddedCopy } from '#db/embedded-copy';

/**
 * The files a command reads and writes. On the operator's own machine these are the file system; when
 * the command runs inside the running shop (scripts/shop/through-shop.ts), the command line sends the
 * files it reads and writes back the ones the command wrote, each path as the operator typed it.
 */
export interface CommandFiles {
  read(path: string): Promise<string>;
  write(path: string, text: string): Promise<void>;
}

export interface CommandContext {
  db: Database;
  /** One line of output (JSON, one object per line). */
  out: (line: string) => void;
  /** Who acts, for the audit log: the command line (commandLineOperator). */
  operator: Operator;
  files: CommandFiles;
  /** Coin lifetimes from the settings (PAID_COIN_EXPIRY_DAYS, FREE_COIN_EXPIRY_DAYS): every caller passes them. */
  lifetimes: CoinLifetimes;
  /** The payment providers (only `orders:refund` talks to them). */
  gateway?: PaymentGateway;
  /** The shop's payment rules from the settings, given with the providers. */
  paymentRules?: ShopPaymentRules;
  /** The address keys from the settings (ADDRESS_ENCRYPTION_KEYS; only `addresses:rekey` uses them). */
  addressKeyring?: AddressKeyring;
  /**
   * What a beacon pack commits to (decision 081): given when the command runs inside the running shop, which
   * holds the drand chain and the receipt key; absent otherwise (publishing a beacon pack is then refused).
   */
  beacon?: BeaconPublishTerms | null;
  /** The embedded database's online copy (only `backup` uses it; absent on PostgreSQL). */
  copyEmbedded?: (into: string) => Promise<EmbeddedCopy>;
}

export interface ShopCommand {
  name: string;
  /** Its line in the usage (after the command name). */
  usage: string;
  options: OptionSpec;
  /** Whether it needs the payment providers (the entry starts them only then). */
  needsGateway?: boolean;
  /** The files it reads, named on its command line (sent along when it runs inside the running shop). */
  inputFiles?(input: { values: OptionValues; positionals: string[] }): string[];
  /** Runs the command; answers the exit code when it is not 0 (an invariant broken). */
  run(context: CommandContext, input: { values: OptionValues; positionals: string[] }): Promise<number | void>;
}

/** What a command that needs no database is given: the settings' media store and data folder. */
export interface OfflineContext {
  /** One line of output (JSON, one object per line). */
  out: (line: string) => void;
  /** The store the settings name (the bucket of MEDIA_S3_BUCKET, or DATA_DIR). */
  media: MediaStore;
  /** DATA_DIR, resolved. */
  dataDir: string;
}

/**
 * A command that needs no database (moving files, say): it runs in the command line's own process with
 * the command line's settings, never through the running shop, and never claims the embedded database.
 */
export interface OfflineShopCommand {
  name: string;
  usage: string;
  options: OptionSpec;
  offline: true;
  run(context: OfflineContext, input: { values: OptionValues; positionals: string[] }): Promise<number | void>;
}

/**
 * An operator action's value, or its refusal thrown (runAdminCommand words it from the catalogue).
 * @example const grant = settled(await grantCoinsAsOperator(db, operator, input))
 */
export function settled<T>(outcome: { ok: true; value: T } | Refusal<string>): T {
  if (isRefusal(outcome)) throw new RefusalError(outcome);
  return outcome.value;
}
