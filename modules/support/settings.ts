// Support's settings (decision 065): the contact form's image size and its limits against abuse.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const supportSettings = declareSettings({
  title: 'Inquiries',
  shape: {
    /**
     * The contact form (/contact): the largest image taken per attachment (bytes, before re-encoding;
     * three at most, so the form's own body limit is three of these and 64 KiB), posts per client
     * address per hour (every post, counted before the body is read), and inquiries per email address
     * per day (docs/decisions/024).
     */
    CONTACT_IMAGE_MAX_BYTES: z.coerce.number().int().min(50_000).max(10_000_000).default(5_000_000),
    CONTACT_POSTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
    CONTACT_INQUIRIES_PER_EMAIL_PER_DAY: z.coerce.number().int().min(1).max(1_000).default(5),
  },
  docs: {
    CONTACT_IMAGE_MAX_BYTES: {
      meaning:
        'the largest image the contact form takes, per image as uploaded (three at most). POST `/contact` alone may ' +
        'carry `3 ×` this `+ 64 KiB`; every other request keeps 256 KiB (docs/decisions/024)',
    },
    CONTACT_POSTS_PER_ADDRESS_PER_HOUR: {
      meaning: 'posts of the contact form per client address per hour, counted before the body is read (429 beyond)',
    },
    CONTACT_INQUIRIES_PER_EMAIL_PER_DAY: {
      meaning:
        "inquiries per email address written into the form per day (429 beyond): nobody fills a stranger's inbox " +
        'through the shop',
    },
  },
});
