// The wallet's public API: balances, grants, the coin history and the expiry job. The rules that
// must hold under concurrency (spending order, expiry, idempotency) are SQL functions in
// modules/wallet/sql/ (applied after the migrations); its files call them and shape their answers. The door
// only re-exports (issue 30 item 1): lifetimes and reasons (rules.ts), grants (grants.ts), spending
// (spending.ts), balances and lots (balance.ts), the coin history (history.ts), the expiry job and the
// invariants (upkeep.ts), paid purchase figures (purchases.ts).
export { coinKinds, type CoinKind } from './schema';
export { PAID_COIN_DAYS, FREE_COIN_DAYS, EXPIRING_SOON_DAYS, LEDGER_REASON_LABELS } from './rules';
export { listCoinLots, getBalance, type WalletBalance, type CoinLot } from './balance';
export {
  WALLET_REFUSAL_CODES,
  IdempotencyKeyConflict,
  grantCoins,
  type CoinLifetimes,
  type GrantInput,
  type GrantResult,
  type WalletRefusalCode,
} from './grants';
export { spendCoins, refundSpend, debitCoins, type SpendInput } from './spending';
export { listLedgerEntries, listCoinHistory, type LedgerEntryView, type CoinHistoryRow } from './history';
export { expireDueCoins, checkInvariants } from './upkeep';
export { paidCoinsBought, paidPurchaseTotals, membersWhoBoughtAtLeast } from './purchases';
export { ledgerExportBatch } from './export';
export {
  holdPaidCoinExpiry,
  membersWithCoins,
  paidCoinsAtPage,
  unusedPaidCoinsAt,
  type MemberCoins,
  type PaidCoinsAt,
} from './closure';
export { walletSettings } from './settings';
export { WALLET_REFUSAL_WORDS } from './refusal-words';
