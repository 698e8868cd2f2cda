// Invitations' settings (decisions 038 and 065): the reward, its monthly cap and its claim period.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const invitationSettings = declareSettings({
  title: 'Invitations',
  shape: {
    /**
     * Invitations (decision 038): free coins each of the inviter and the invitee receive once the invitee has
     * verified a phone number and made a first purchase; 0 grants nothing (the states are still shown).
     */
    INVITATION_REWARD_COINS: z.coerce.number().int().min(0).max(1_000_000).default(500),
    /** Rewarded invitations per inviter per Japan-time month; beyond it an invitation is 上限のため対象外. */
    INVITATION_MONTHLY_CAP: z.coerce.number().int().min(0).max(10_000).default(10),
    /** Days the members have to claim an invitation reward in the mailbox. */
    INVITATION_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  },
  docs: {
    INVITATION_REWARD_COINS: {
      meaning:
        'free coins each of the inviter and the invitee receive (as mailbox attachments) once the invitee has verified ' +
        'a phone number and made a first purchase; `0` grants nothing (decision 038)',
    },
    INVITATION_MONTHLY_CAP: {
      meaning: 'rewarded invitations per inviter per Japan-time month; beyond it an invitation is 上限のため対象外',
    },
    INVITATION_CLAIM_DAYS: { meaning: 'days the members have to claim an invitation reward in the mailbox' },
  },
});
