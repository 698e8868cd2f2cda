// The compose form's limits and the send confirmation's figures, shared by the admin page and its action.
export const MAIL_LIMITS = { subject: 80, body: 5_000, coins: 100_000, inactiveDays: 3650 } as const;

/** What the confirmation names before a mail is sent or scheduled (decision 052). */
export interface MailConfirmationView {
  /** Recipients counted now: the members the mail's segment matches at this instant. */
  recipients: number;
  coinsPerMember: number;
  /** recipients × coins per member: the most the present can cost. */
  totalCoins: number;
  needsApproval: boolean;
  approvalThresholdCoins: number;
  /** 送り先 and when, in the operators' words. */
  toText: string;
  whenText: string;
  /** Sent at a later time: the segment is judged again then. */
  scheduled: boolean;
}
