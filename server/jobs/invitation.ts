// The invitation settle job (docs/decisions/038): every minute it settles the invitees whose first
// purchase was just credited (the payments feed, from its watermark) and the pending invitations checked
// longest ago (phone verifications, anything a run missed). Each settlement locks its invitation and
// the inviter's code row, so repeats and a second instance reward nothing twice.
import { settleDueInvitations, type InvitationRules } from '#modules/invitation';
import { invitationRulesOf, type InvitationConfig } from '../invitation';
import type { JobDefinition } from './runner';

export const settleInvitationsJob = (config: InvitationConfig): JobDefinition => {
  // Built on the first run: registering the job reads no setting (tests register with a partial config).
  let rules: InvitationRules | undefined;
  return {
    name: 'invitation.settle',
    cron: '* * * * *',
    handler: async ({ db, now }) => {
      rules ??= invitationRulesOf(config);
      const run = await settleDueInvitations(db, rules, now);
      return { processed: run.processed };
    },
  };
};
