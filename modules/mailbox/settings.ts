// The mailbox's settings (decision 065): operators' mail presents and the welcome mail's gift.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const mailboxSettings = declareSettings({
  title: 'The mailbox',
  shape: {
    /**
     * An operator's mail present (decision 052): the most free coins one member may receive from it (the form
     * refuses more), and the total (recipients counted at sending × coins) above which another admin approves
     * before it is sent.
     */
    MAIL_PRESENT_MAX_COINS_PER_MEMBER: z.coerce.number().int().min(1).max(100_000).default(3_000),
    MAIL_PRESENT_APPROVAL_THRESHOLD_COINS: z.coerce.number().int().min(0).max(10_000_000_000).default(100_000),
    /** The welcome mail's sign-up gift in free coins (decision 034); 0: a welcome mail without a gift. */
    SIGNUP_GIFT_COINS: z.coerce.number().int().min(0).max(1_000_000).default(0),
    /** Days a new member has to claim the sign-up gift from the welcome mail. */
    SIGNUP_GIFT_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  },
  docs: {
    MAIL_PRESENT_MAX_COINS_PER_MEMBER: {
      meaning:
        "the most free coins one member may receive from an operator's mail present; /admin/mail refuses more (decision 052)",
    },
    MAIL_PRESENT_APPROVAL_THRESHOLD_COINS: {
      meaning:
        "an operator's mail whose present may cost more than this in total (recipients counted at sending × coins per " +
        "member) waits for another admin's approval at `/admin/approvals` and is sent only then, scheduled ones too " +
        '(decision 052)',
    },
    SIGNUP_GIFT_COINS: {
      meaning:
        'free coins attached to the welcome mail every new member gets (claimed in the mailbox); `0`: the welcome mail ' +
        'has no gift (decision 034)',
    },
    SIGNUP_GIFT_CLAIM_DAYS: { meaning: 'days a new member has to claim the sign-up gift' },
  },
});
