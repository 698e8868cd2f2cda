// The prize box's mailbox mails (decision 034): the decision deadline reminders (3 days and 1 day before,
// one mail per member and deadline day, not one per card) and the notice that undecided or kept prizes
// were converted automatically. Both go through the mailbox's notifyMember, so a rerun writes nothing more.
import type { Database } from '#db/client';
import { pendingPrizeDeadlines, type AutoConversion } from '#modules/draw';
import { notifyMember, sendPendingMailEmails } from '#modules/mailbox';
import type { SiteIdentity } from '#modules/messaging';
import type { JobDefinition } from './runner';

const DAY_MS = 86_400_000;
/** The reminders, farthest first: a prize within (1, 3] days gets the 3-day one, within (0, 1] the 1-day one. */
export const PRIZE_DEADLINE_REMINDER_DAYS = [3, 1] as const;

const dayLabel = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return `${y}年${m}月${d}日`;
};

/**
 * One mail per member, deadline day and reminder; the dedupe key is `prize-deadline:<days>d:<JST day>`.
 * @example await sendPrizeDeadlineMails(db, new Date()) // mails written
 */
export async function sendPrizeDeadlineMails(db: Database, now = new Date()) {
  let written = 0;
  for (const days of PRIZE_DEADLINE_REMINDER_DAYS) {
    const nearer = days === 3 ? 1 : 0;
    const groups = await pendingPrizeDeadlines(
      db,
      new Date(now.getTime() + nearer * DAY_MS),
      new Date(now.getTime() + days * DAY_MS),
    );
    for (const group of groups) {
      const sent = await notifyMember(db, {
        memberId: group.memberId,
        category: 'prize_deadline',
        dedupeKey: `prize-deadline:${days}d:${group.day}`,
        subject: days === 1 ? '【明日まで】獲得したカードの選択期限です' : '獲得したカードの選択期限が近づいています',
        body: [
          {
            type: 'paragraph',
            text: `獲得したカード ${group.prizes}枚の選択期限（${dayLabel(group.day)}）まで、あと${days}日です。`,
            spans: [],
          },
          {
            type: 'paragraph',
            text: '期限を過ぎると、カードは自動でコイン（無償コイン）に交換されます。発送するカードは、期限までに選んでください。',
            spans: [],
          },
          {
            type: 'paragraph',
            text: '獲得商品を確認する',
            spans: [{ start: 0, end: 8, type: 'hyperlink', data: { url: '/mypage?tab=prizes' } }],
          },
        ],
        sendAt: now,
      });
      if (sent.created) written += 1;
    }
  }
  return written;
}

/** Job `prizes.deadline-mails`: hourly, so a reminder arrives within the hour it became due. */
export const prizeDeadlineMailsJob = (): JobDefinition => ({
  name: 'prizes.deadline-mails',
  cron: '40 * * * *',
  handler: async ({ db, now }) => ({ processed: await sendPrizeDeadlineMails(db, now) }),
});

/**
 * The deadline job's mailbox notice, in each member's conversion transaction (key: the first prize's id,
 * so a retry converting nothing more writes nothing more). Email only when no kept prize is among them:
 * shipping already emails about those (storageConversionNotifier).
 * @example autoConvertDuePrizes(db, days, now, 200, prizeConversionMail())
 */
export function prizeConversionMail() {
  return async (tx: Database, conversion: AutoConversion): Promise<void> => {
    const first = conversion.converted[0];
    if (!first) return;
    const emailed = conversion.converted.some((c) => c.wasKept);
    await notifyMember(tx, {
      memberId: conversion.memberId,
      category: 'prize_auto_converted',
      dedupeKey: `prize-auto-converted:${first.prizeId}`,
      subject: '期限を過ぎたカードをコインに交換しました',
      body: `期限を過ぎたカード ${conversion.converted.length}枚を、${conversion.total.toLocaleString('ja-JP')}コイン（無償コイン）に交換しました。`,
      email: !emailed,
    });
  };
}

/** Runs each hook in turn, in the same transaction. */
export const bothConversionHooks =
  (...hooks: ((tx: Database, conversion: AutoConversion) => Promise<void>)[]) =>
  async (tx: Database, conversion: AutoConversion) => {
    for (const hook of hooks) await hook(tx, conversion);
  };

/**
 * Job `mailbox.email-notices`: every minute, the email about each new personal mail to members who opted in
 * (the level-up mail written by the draw's SQL, rank-up, invitation, purchase, deadline mails…), 500 a run.
 */
export const mailEmailNoticesJob = (site: SiteIdentity): JobDefinition => ({
  name: 'mailbox.email-notices',
  cron: '* * * * *',
  handler: async ({ db, now }) => ({ processed: await sendPendingMailEmails(db, site, { limit: 500, now }) }),
});
