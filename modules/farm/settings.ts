// The farm's settings (decisions 044 and 065). Its own rules (seeds, caps, pause) are edited in
// /admin/farm, not here.
import { z } from 'zod';
import { booleanFlag, declareSettings } from '#modules/kernel';

export const farmSettings = declareSettings({
  title: 'The farm',
  shape: {
    /** Farm and friend actions one member may send per minute (every instance counts together). */
    FARM_ACTIONS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),
    /**
     * Tests and demos only: lets this machine move the farm's clock forward (POST /dev/farm-clock, with the
     * developer tools: a loopback origin and a request from this machine). Refused on an https shop.
     */
    FARM_CLOCK_ADJUSTABLE: booleanFlag.default(false),
  },
  docs: {
    FARM_ACTIONS_PER_MINUTE: {
      meaning: 'farm and friend actions one member may send per minute, all instances together (429 beyond)',
    },
    FARM_CLOCK_ADJUSTABLE: {
      meaning:
        'tests and demos only: `POST /dev/farm-clock {"advanceMinutes": n}` moves the farm\'s clock forward from this ' +
        "machine; refused on an https origin. The farm's own rules (seeds, caps, pause) are edited in `/admin/farm`",
    },
  },
  problems: (values, { httpsOrigin }) =>
    values.FARM_CLOCK_ADJUSTABLE && httpsOrigin
      ? ['FARM_CLOCK_ADJUSTABLE: a test setting, refused on an https shop (members would get coins early)']
      : [],
});
