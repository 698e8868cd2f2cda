// The pack editor's settings (decisions 030 and 065): the image size, the forbidden words, the margin's costs.
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
  },
});
