// The draw's settings (decision 065): how long prizes wait, and what a conversion names and lets undo.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const drawSettings = declareSettings({
  title: 'Prizes and conversion',
  shape: {
    /** Days a prize waits for the member's choice before it is converted to coins. */
    PRIZE_DECISION_DAYS: z.coerce.number().int().min(1).max(365).default(14),
    /** Days a kept prize waits for a shipping request before it is converted (reminders 7 days and 1 day before). */
    KEPT_PRIZE_STORAGE_DAYS: z.coerce.number().int().min(8).max(3650).default(60),
    /** A prize worth at least this many coins is named in a conversion's confirmation (with S賞 and above). */
    PRIZE_HIGHLIGHT_COINS: z.coerce.number().int().min(1).max(100_000_000).default(10_000),
    /**
     * A conversion's confirmation names, card by card, every prize worth at least this many coins
     * (decision 057), beside every tier above the pack's lowest CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS.
     */
    CONVERT_CONFIRM_NAMED_MIN_COINS: z.coerce.number().int().min(1).max(100_000_000).default(1_000),
    /**
     * How many of a pack's lowest tiers a conversion may take unnamed (2: in S・A・B・C, A賞 and better are
     * named one by one); the same tiers make 保管 the first choice on a result and in a card's sheet (decision 057).
     */
    CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS: z.coerce.number().int().min(0).max(20).default(2),
    /** Seconds in which a member's own conversion can be undone exactly (元に戻す, decision 057). */
    CONVERT_UNDO_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  },
  docs: {
    PRIZE_DECISION_DAYS: {
      meaning:
        "days a prize waits for the member's choice (convert or keep) before the `prizes.auto-convert` job converts it",
    },
    KEPT_PRIZE_STORAGE_DAYS: {
      meaning:
        'days a kept prize (保管中) waits for a shipping request; reminders go 7 days and 1 day before the end ' +
        "(`prizes.storage-reminders`), then `prizes.auto-convert` converts it. A canceled or returned request's " +
        'prizes start a new period',
    },
    PRIZE_HIGHLIGHT_COINS: {
      meaning:
        "a prize worth at least this many coins is named in the highlighted line of a conversion's confirmation, " +
        'beside every S賞 or better; the same rule makes a win top-tier for the winners feed (当選履歴, decision 036)',
    },
    CONVERT_CONFIRM_NAMED_MIN_COINS: {
      meaning:
        "a conversion's confirmation names, card by card with its value, every card worth at least this many coins " +
        '(decision 057)',
    },
    CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS: {
      meaning:
        "…and every card of a tier above its pack's lowest this many (2: in S・A・B・C, A賞 and better); the same tiers " +
        "get 保管 as their first choice on a result and in a card's sheet (decision 057)",
    },
    CONVERT_UNDO_SECONDS: {
      meaning:
        "seconds in which 元に戻す reverses a member's own conversion exactly (cards back, coins taken back with new " +
        'ledger entries; decision 057)',
    },
  },
});
