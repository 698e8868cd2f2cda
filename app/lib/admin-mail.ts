// The compose form's limits, shared by the admin page (field sizes) and its action (checks).
export const MAIL_LIMITS = { subject: 80, body: 5_000, coins: 100_000, inactiveDays: 3650 } as const;
