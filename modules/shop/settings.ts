// The shop's settings (decision 065): how long an instance trusts its copy of the maintenance switch.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const shopSettings = declareSettings({
  title: 'Maintenance',
  shape: {
    /**
     * How long an instance trusts its copy of the maintenance switch (pages, the API's edge, health): every
     * instance sees a change within this time; the draw and the checkout read it exactly (decision 025).
     */
    MAINTENANCE_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  },
  docs: {
    MAINTENANCE_CACHE_SECONDS: {
      meaning:
        "how long an instance trusts its copy of the maintenance switch: the banner, the API's edge and health of " +
        'every instance follow a switch within this time; the draw and the checkout read it exactly ' +
        '(docs/operators.md "Maintenance mode")',
    },
  },
});
