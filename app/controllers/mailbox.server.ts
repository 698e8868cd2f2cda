// The mailbox on the member's pages (decision 034): the two lists, one mail (opened = read), the claim
// button's action, the header's unread count and the claimed attachments of /myinbox/bonus/logs.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { notFound } from '~/lib/not-found';
import {
  claimAllPresents,
  claimMailAttachment,
  claimablePresents,
  claimedAttachments,
  listMails,
  mailEmailOptIn,
  setMailEmailOptIn,
  openMail,
  unreadMailCount,
  type MailSummary,
} from '#modules/mailbox';
import { isStaffRole } from '#modules/identity';
import { describeRefusal } from '#modules/refusals';
import { mailClaimRules, shopMailboxOptions } from '#server/context';

export const MAIL_PAGE_SIZE = 20;

type SignedIn = ShopRequest & { member: NonNullable<ShopRequest['member']> };

/** A mail as the pages get it (dates as ISO text). */
export interface MailItem {
  id: number;
  subject: string;
  category: string;
  sendAt: string;
  read: boolean;
  attachment: { coins: number; claimUntil: string | null; claimed: boolean; expired: boolean } | null;
}

export const mailItemOf = (mail: MailSummary): MailItem => ({
  id: mail.id,
  subject: mail.subject,
  category: mail.category,
  sendAt: mail.sendAt.toISOString(),
  read: mail.read,
  attachment: mail.attachment
    ? { ...mail.attachment, claimUntil: mail.attachment.claimUntil?.toISOString() ?? null }
    : null,
});

/** A mail id from the path or a query: a positive whole number, else null (the page answers 404). */
export function mailIdOf(text: string | null | undefined): number | null {
  if (!text || !/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** One page of あなたへ ('personal') or お知らせ ('broadcast'), newest first; a bad `before` starts at the top. */
export async function mailListOf(shop: SignedIn, box: 'personal' | 'broadcast', url: URL) {
  const before = mailIdOf(url.searchParams.get('before')) ?? undefined;
  const page = await listMails(
    shop.services.db,
    shop.member.id,
    box,
    { limit: MAIL_PAGE_SIZE, before },
    shopMailboxOptions(),
  );
  return { items: page.items.map(mailItemOf), nextBefore: page.nextBefore, paged: before !== undefined };
}

/** The mail, marked read; the shop's 404 for another member's, an unknown or a malformed id. */
export async function mailPageOf(shop: SignedIn, mailIdText: string | undefined, pathname: string) {
  const mailId = mailIdOf(mailIdText);
  const mail = mailId ? await openMail(shop.services.db, shop.member.id, mailId, shopMailboxOptions()) : null;
  if (!mail) throw notFound(pathname);
  const unread = await unreadMailCount(shop.services.db, shop.member.id, {
    ...shopMailboxOptions(),
    joinedAt: shop.member.joinedAt,
  });
  return { mail: { ...mailItemOf(mail), audience: mail.audience, body: mail.body }, unread };
}

export type MailClaimActionData = { ok: true; coins: number; message: string } | { ok: false; message: string };

/** The claim button: one tap credits the attachment once; a refusal answers its Japanese words. */
export async function mailClaimAction(shop: ShopRequest, request: Request, mailIdText: string | undefined) {
  if (!shop.member) {
    const path = new URL(request.url).pathname;
    throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  }
  const mailId = mailIdOf(mailIdText);
  if (!mailId) throw notFound(new URL(request.url).pathname);
  const outcome = await claimMailAttachment(
    shop.services.db,
    shop.member.id,
    mailId,
    mailClaimRules(shop.services.config),
    shopMailboxOptions(),
  );
  if (!outcome.ok) {
    const refused = describeRefusal(outcome);
    return data<MailClaimActionData>({ ok: false, message: refused.message }, { status: refused.status });
  }
  return data<MailClaimActionData>({
    ok: true,
    coins: outcome.coins,
    message: `${outcome.coins.toLocaleString('ja-JP')}コイン（無償コイン）を受け取りました。`,
  });
}

/** The presents 「すべて受け取る」 would take now: how many and their coins (the list's bar); null for staff, who cannot claim. */
export async function claimableSummaryOf(shop: SignedIn) {
  if (isStaffRole(shop.member.role)) return null;
  const found = await claimablePresents(shop.services.db, shop.member.id, shopMailboxOptions());
  return { count: found.mailIds.length, coins: found.coins };
}

export type MailClaimAllActionData =
  | { ok: true; intent: 'claim-all'; claimed: number; coins: number; message: string }
  | { ok: false; intent: 'claim-all'; message: string };

/**
 * 「すべて受け取る」: every claimable present of the member, each credited once (a double tap finds them
 * claimed and answers 0); the answer names the total received.
 */
export async function mailClaimAllAction(shop: SignedIn) {
  const outcome = await claimAllPresents(
    shop.services.db,
    shop.member.id,
    mailClaimRules(shop.services.config),
    shopMailboxOptions(),
  );
  if (!outcome.ok) {
    const refused = describeRefusal(outcome);
    return data<MailClaimAllActionData>(
      { ok: false, intent: 'claim-all', message: refused.message },
      { status: refused.status },
    );
  }
  return data<MailClaimAllActionData>({
    ok: true,
    intent: 'claim-all',
    claimed: outcome.claimed,
    coins: outcome.coins,
    message:
      outcome.claimed > 0
        ? `プレゼント${outcome.claimed}件、合計${outcome.coins.toLocaleString('ja-JP')}コイン（無償コイン）を受け取りました。`
        : '受け取れるプレゼントはありません（受け取り済みです）。',
  });
}

/** The header's badge: unread mails, personal and broadcast; null for visitors. */
export async function unreadMailsOf(shop: ShopRequest): Promise<number | null> {
  if (!shop.member) return null;
  return unreadMailCount(shop.services.db, shop.member.id, { ...shopMailboxOptions(), joinedAt: shop.member.joinedAt });
}

/** Claimed attachments for /myinbox/bonus/logs, newest claim first; `?mails_before=` pages them. */
export async function claimedAttachmentsOf(shop: SignedIn, url: URL) {
  const beforeText = url.searchParams.get('mails_before') ?? '';
  const beforeTime = Date.parse(beforeText);
  const before = /^\d{4}-\d{2}-\d{2}T/.test(beforeText) && !Number.isNaN(beforeTime) ? new Date(beforeTime) : undefined;
  const page = await claimedAttachments(shop.services.db, shop.member.id, { limit: MAIL_PAGE_SIZE, before });
  return {
    items: page.items.map((item) => ({ ...item, claimedAt: item.claimedAt.toISOString() })),
    nextBefore: page.nextBefore?.toISOString() ?? null,
    paged: Boolean(before),
  };
}

/** Whether system mails also come by email (the mailbox page's small setting). */
export const emailOptInOf = (shop: SignedIn) => mailEmailOptIn(shop.services.db, shop.member.id);

export type MailSettingActionData =
  | { ok: true; intent?: 'email-notice'; message: string; emailOptIn: boolean }
  | { ok: false; intent?: 'email-notice'; message: string };

/** The setting's form: `email` is 'on' (checked) or absent; anything else is refused. */
export async function mailSettingAction(shop: ShopRequest, request: Request) {
  if (!shop.member) {
    const path = new URL(request.url).pathname;
    throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<MailSettingActionData>(
      { ok: false, message: '送信内容を読み取れませんでした。もう一度お試しください。' },
      { status: 400 },
    );
  }
  if (form.get('intent') === 'claim-all') return mailClaimAllAction({ ...shop, member: shop.member });
  const email = form.get('email');
  if (form.get('intent') !== 'email-notice' || (email !== null && email !== 'on'))
    return data<MailSettingActionData>({ ok: false, message: '設定を選び直してください。' }, { status: 400 });
  const on = email === 'on';
  await setMailEmailOptIn(shop.services.db, shop.member.id, on);
  return data<MailSettingActionData>({
    ok: true,
    emailOptIn: on,
    message: on ? 'お知らせをメールでも受け取ります。' : 'お知らせのメールを止めました。',
  });
}
