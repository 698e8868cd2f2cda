// The admin area's settings (decision 065): when an operator's coin adjustment waits for a second admin.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const adminSettings = declareSettings({
  title: 'Operators',
  shape: {
    /**
     * An operator's coin adjustment larger than this many coins (either sign) waits for a second admin's
     * approval before it is applied (decision 026); up to it, it is applied at once.
     */
    COIN_ADJUSTMENT_APPROVAL_THRESHOLD: z.coerce.number().int().min(0).max(100_000_000).default(10_000),
  },
  docs: {
    COIN_ADJUSTMENT_APPROVAL_THRESHOLD: {
      meaning:
        "an operator's coin adjustment of more than this many coins (either sign) waits for another admin's approval " +
        'at `/admin/approvals`; up to it, it is applied at once (decision 026)',
    },
  },
});
