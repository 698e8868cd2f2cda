// The wallet's refusal words: status and Japanese message of each code (gathered by modules/refusals).
import { digits, type RefusalEntry, type RefusalWords } from '#modules/kernel';
import type { WalletRefusalCode } from './grants';

// Draws, the wallet's spend and shipping fees alike.
const INSUFFICIENT_COINS: RefusalEntry = {
  status: 422,
  message: (d) => `コインが不足しています（必要 ${digits(d.required)}コイン／所持 ${digits(d.balance)}コイン）。`,
};

export const WALLET_REFUSAL_WORDS: RefusalWords<WalletRefusalCode> = {
  GRANT_KEY_REUSED: {
    status: 409,
    message: (d) =>
      `キー ${String(d.key)} は別の付与（会員・種類・枚数が違う）に使われています。何も付与していません。`,
  },
  INSUFFICIENT_COINS,
};
