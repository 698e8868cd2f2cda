// The fraud signals job (docs/decisions/029): every few minutes it reads the new sessions, address
// books and chargebacks from their watermarks and the last 24 hours of draws and purchases, and raises
// or refreshes the signals the operators decide at /admin/signals. Signals are never computed on a
// page load. Safe to repeat: every write is an upsert keyed by (kind, member, key).
import { computeSignals, fingerprintKeyOf, type RiskRules } from '#modules/risk';
import type { ShopConfig } from '../config';
import type { JobDefinition } from './runner';

/** The settings the job reads. */
export type RiskConfig = Pick<
  ShopConfig,
  | 'RISK_DRAWS_PER_24H'
  | 'RISK_COINS_PER_24H'
  | 'RISK_SPEND_JPY_PER_24H'
  | 'RISK_ACCOUNTS_PER_DEVICE'
  | 'RISK_ACCOUNTS_PER_ADDRESS'
  | 'RISK_ACCOUNTS_PER_PHONE'
  | 'AUTH_SECRET'
  | 'addressKeyring'
>;

/** @example await computeSignals(db, riskRulesOf(config)) */
export const riskRulesOf = (config: RiskConfig): RiskRules => ({
  drawsPer24h: config.RISK_DRAWS_PER_24H,
  coinsPer24h: config.RISK_COINS_PER_24H,
  spendJpyPer24h: config.RISK_SPEND_JPY_PER_24H,
  accountsPerDevice: config.RISK_ACCOUNTS_PER_DEVICE,
  accountsPerAddress: config.RISK_ACCOUNTS_PER_ADDRESS,
  accountsPerPhone: config.RISK_ACCOUNTS_PER_PHONE,
  fingerprintKey: fingerprintKeyOf(config.AUTH_SECRET),
  addressKeyring: config.addressKeyring,
});

export const riskSignalsJob = (config: RiskConfig): JobDefinition => {
  // Built on the first run, so that registering the job reads no setting (tests register every job
  // with a partial config).
  let rules: RiskRules | undefined;
  return {
    name: 'risk.signals',
    cron: '*/5 * * * *',
    handler: async ({ db, now }) => {
      rules ??= riskRulesOf(config);
      const run = await computeSignals(db, rules, now);
      return { processed: run.sessions + run.addresses + run.shared + run.velocity + run.chargebacks };
    },
  };
};
