// Friends' settings (decisions 045 and 065): how many friends, and when a declined request may be asked again.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const friendsSettings = declareSettings({
  title: 'Friends',
  shape: {
    /**
     * Friends (decision 045): friends a member may have, counting the requests they sent that still wait.
     * The farm's own rules (seeds, caps, pause) are edited in /admin/farm, not here (decision 044).
     */
    FRIENDS_LIMIT: z.coerce.number().int().min(1).max(1000).default(30),
    /** Days before a member may ask again someone who declined their friend request. */
    FRIEND_DECLINED_COOLDOWN_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  },
  docs: {
    FRIENDS_LIMIT: {
      meaning: 'friends a member may have, counting the requests they sent that still wait (decision 045)',
    },
    FRIEND_DECLINED_COOLDOWN_DAYS: {
      meaning: 'days before a member may ask again someone who declined their friend request',
    },
  },
});
