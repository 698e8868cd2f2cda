// The fraud signals' settings (decisions 029 and 065): the thresholds at which a member is flagged.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

const sharedAccounts = z.coerce.number().int().min(2).max(1_000);

export const riskSettings = declareSettings({
  title: 'Fraud signals',
  shape: {
    /**
     * Fraud signals (decision 029), raised by the job risk.signals: lots drawn, coins spent on draws and
     * yen of purchases credited in 24 hours at or above which a member is flagged, and how many accounts
     * on one device (client address and browser), one shipping address or one phone number flag each.
     */
    RISK_DRAWS_PER_24H: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
    RISK_COINS_PER_24H: z.coerce.number().int().min(1).max(1_000_000_000).default(1_000_000),
    RISK_SPEND_JPY_PER_24H: z.coerce.number().int().min(1).max(1_000_000_000).default(300_000),
    RISK_ACCOUNTS_PER_DEVICE: sharedAccounts.default(3),
    RISK_ACCOUNTS_PER_ADDRESS: sharedAccounts.default(2),
    RISK_ACCOUNTS_PER_PHONE: sharedAccounts.default(2),
  },
  docs: {
    RISK_DRAWS_PER_24H: {
      meaning:
        'fraud signals (decision 029): lots drawn by one member in 24 hours at or above which the member is flagged at ' +
        '`/admin/signals`',
    },
    RISK_COINS_PER_24H: {
      meaning: 'coins spent on draws by one member in 24 hours at or above which the member is flagged',
    },
    RISK_SPEND_JPY_PER_24H: {
      meaning: 'yen of coin purchases credited to one member in 24 hours at or above which the member is flagged',
    },
    RISK_ACCOUNTS_PER_DEVICE: {
      meaning: 'accounts signed in from one device (client address and browser) at or above which each is flagged',
    },
    RISK_ACCOUNTS_PER_ADDRESS: {
      meaning:
        'accounts with one shipping address (however written, any recipient name) at or above which each is flagged',
    },
    RISK_ACCOUNTS_PER_PHONE: {
      meaning: 'accounts with one phone number in their shipping addresses at or above which each is flagged',
    },
  },
});
