// The pack editor's settings (decisions 030 and 065): the image size, the forbidden words, the margin's costs,
// and the value from which a graded card is published with its certificate and photo (issue 33 item 8).
import { z } from 'zod';
import { declareSettings, wordList } from '#modules/kernel';

export const gachaSettings = declareSettings({
  title: 'The pack editor',
  shape: {
    /**
     * The pack editor (decision 030): the largest image taken (bytes, before re-encoding), the words
     * 景品表示法 forbids in a pack's copy (comma-separated, matched after NFKC), and the costs its margin
     * counts: the payment providers' fee (percent of sales) and shipping one prize (yen).
     */
    PACK_IMAGE_MAX_BYTES: z.coerce.number().int().min(50_000).max(20_000_000).default(8_000_000),
    PACK_FORBIDDEN_WORDS: wordList('必ず当たる,必ず,確定,100%,絶対,全員当選,損しない'),
    PAYMENT_FEE_PERCENT: z.coerce.number().min(0).max(50).default(3.6),
    SHIPPING_COST_PER_PRIZE_YEN: z.coerce.number().int().min(0).max(100_000).default(300),
    /**
     * A graded card (one with a grading company) whose conversion value is at least this many coins is
     * published only with its certificate number and its photo kept byte for byte (certificates.ts). The
     * default is the same line as PRIZE_HIGHLIGHT_COINS' top-tier win: ¥10,000 at ¥1 a coin, the cards a
     * member draws for, where proof matters and grading is worth its fee.
     */
    CERTIFIED_PRIZE_MIN_COINS: z.coerce.number().int().min(0).max(100_000_000).default(10_000),
  },
  docs: {
    PACK_IMAGE_MAX_BYTES: {
      meaning: 'the largest image the pack editor takes; POSTs to `/admin/packs/<id>` alone may carry it `+ 64 KiB`',
    },
    PACK_FORBIDDEN_WORDS: {
      allowed: 'comma-separated words',
      meaning:
        "words 景品表示法 forbids in a pack's copy (matched after NFKC, so `１００％` is `100%`); the editor refuses to " +
        'publish a pack whose title, description, tier or card names contain one',
    },
    PAYMENT_FEE_PERCENT: { meaning: "the payment providers' fee, percent of sales, in the editor's margin" },
    SHIPPING_COST_PER_PRIZE_YEN: {
      meaning: "packing and postage of one prize, in the editor's margin (which counts every prize shipped)",
    },
    CERTIFIED_PRIZE_MIN_COINS: {
      meaning:
        'a graded card (a tier with a grading company: PSA, BGS, ARS) worth at least this many coins as conversion ' +
        'value is published by the pack editor only with its certificate number and its photo (kept byte for byte, ' +
        'its SHA-256 computed by the shop), one card per tier; the pack page shows both from publication. `0`: every ' +
        'graded card. The default matches `PRIZE_HIGHLIGHT_COINS`: ¥10,000 at ¥1 a coin, the hits members draw for',
    },
  },
});
