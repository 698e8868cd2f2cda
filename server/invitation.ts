// Invitations at the edge (decision 038): the rules from the settings, /r?code=… leaving the code in a
// short-lived cookie, and the sign-up hook that attaches the invitation and leaves the analytics event.
import type { MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import type { Database } from '#db/client';
import { fingerprintKeyOf } from '#modules/risk';
import { jstText } from '#modules/kernel';
import {
  INVITATION_COOKIE,
  INVITATION_COOKIE_SECONDS,
  INVITATION_EVENT_COOKIE,
  INVITEE_STATE_LABELS,
  attachInvitation,
  invitationOverviewOf,
  type InviteeState,
  type InvitationRules,
} from '#modules/invitation';
import { normalisePathname } from '#modules/kernel/navigation';
import type { MemberCreated } from '#modules/identity/server';
import { currentSponsorship } from '#modules/identity';
import type { ShopConfig } from './config';
import type { Logger } from './logger';

export type InvitationConfig = Pick<
  ShopConfig,
  'INVITATION_REWARD_COINS' | 'INVITATION_MONTHLY_CAP' | 'INVITATION_CLAIM_DAYS' | 'AUTH_SECRET'
>;

/** The invitation link of a code: /r?code=… on the shop's public origin. */
export const invitationLinkOf = (origin: string, code: string) => `${origin}/r?code=${encodeURIComponent(code)}`;

/** The message a member shares, with the link. */
export function shareTextOf(siteName: string, rewardCoins: number): string {
  return rewardCoins > 0
    ? `${siteName}で一緒にオリパを楽しもう！招待リンクから登録して、電話番号認証と初回購入をすると、お互いに${rewardCoins.toLocaleString('ja-JP')}コインもらえます。`
    : `${siteName}で一緒にオリパを楽しもう！招待リンクから登録してね。`;
}

/**
 * A sponsored member's share text opens with 【PR】 (decision 083; 景品表示法's ステマ rule): what a streamer or
 * affiliate posts for the shop is an advertisement and says so.
 * @example labelSponsoredShare('一緒にオリパ…', true) // '【PR】一緒にオリパ…'
 */
export function labelSponsoredShare(text: string, sponsored: boolean): string {
  return sponsored ? `【PR】${text}` : text;
}

/** The share addresses: LINE's share URL and X's post intent. */
export function shareUrlsOf(text: string, link: string) {
  return {
    line: `https://line.me/R/share?text=${encodeURIComponent(`${text}\n${link}`)}`,
    x: `https://x.com/intent/post?text=${encodeURIComponent(text)}&url=${encodeURIComponent(link)}`,
  };
}

export interface InviteeRow {
  name: string;
  /** Japan-time day of the sign-up, YYYY/MM/DD. */
  joinedOn: string;
  joinedAt: string;
  state: InviteeState;
  stateLabel: string;
  phoneVerified: boolean;
  purchased: boolean;
}

/**
 * The member's invitation as the page and the API show it (JSON-safe): code, link, share addresses,
 * this month's rewards against the cap, the invitees (newest first, at most `limit`) and their states.
 * @example const view = await invitationViewOf({ db, config }, memberId)
 */
export async function invitationViewOf(
  services: { db: Database; config: InvitationConfig & Pick<ShopConfig, 'PUBLIC_ORIGIN' | 'SITE_NAME'> },
  memberId: string,
  limit = 100,
) {
  const { db, config } = services;
  const rules = invitationRulesOf(config);
  const view = await invitationOverviewOf(db, memberId, rules, new Date(), limit);
  const link = invitationLinkOf(config.PUBLIC_ORIGIN, view.code);
  const shareText = labelSponsoredShare(
    shareTextOf(config.SITE_NAME, rules.rewardCoins),
    (await currentSponsorship(db, memberId)) !== null,
  );
  const invitees: InviteeRow[] = view.invitees.map((invitee) => ({
    name: invitee.name,
    joinedOn: jstText(invitee.joinedAt).slice(0, 10),
    joinedAt: invitee.joinedAt.toISOString(),
    state: invitee.state,
    stateLabel: INVITEE_STATE_LABELS[invitee.state],
    phoneVerified: invitee.phoneVerified,
    purchased: invitee.purchased,
  }));
  return {
    code: view.code,
    link,
    shareText,
    share: shareUrlsOf(shareText, link),
    month: { label: view.monthLabel, rewarded: view.rewardedThisMonth, cap: view.monthlyCap },
    rewardCoins: view.rewardCoins,
    claimDays: config.INVITATION_CLAIM_DAYS,
    totals: view.totals,
    invitees,
    invitedBy: view.invitedBy
      ? {
          name: view.invitedBy.name,
          state: view.invitedBy.state,
          stateLabel: INVITEE_STATE_LABELS[view.invitedBy.state],
        }
      : null,
    canEnterCode: view.canEnterCode,
  };
}

/** @example await settleInvitation(db, inviteeId, invitationRulesOf(config)) */
export const invitationRulesOf = (config: InvitationConfig): InvitationRules => ({
  rewardCoins: config.INVITATION_REWARD_COINS,
  monthlyCap: config.INVITATION_MONTHLY_CAP,
  claimDays: config.INVITATION_CLAIM_DAYS,
  fingerprintKey: fingerprintKeyOf(config.AUTH_SECRET),
});

/** The code as the cookie keeps it: letters and digits only, at most 16 (checked against the codes at sign-up). */
export const cookieCodeOf = (value: string | null | undefined): string | null => {
  const code = (value ?? '')
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, 16);
  return code || null;
};

/**
 * GET /r?code=… (and /r/ow?code=…, /app/friends/add?code=…): the route rule still answers (/r redirects to /; /r/ow asks a visitor
 * to sign in first), and the answer also sets the invitation cookie (HttpOnly, Secure, SameSite=Lax, a week).
 */
export function invitationLinkCookie(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const path = normalisePathname(c.req.path.replace(/\.data$/, ''));
    // The friends link (/app/friends/add?code=…, decision 045) carries the same personal code: a visitor
    // who signs up from it is the friend's invitee too.
    if (path !== '/r' && path !== '/r/ow' && path !== '/app/friends/add') return next();
    const code = cookieCodeOf(c.req.query('code'));
    await next();
    if (code && c.res.status < 400)
      setCookie(c, INVITATION_COOKIE, code, {
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: INVITATION_COOKIE_SECONDS,
      });
  };
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * Called once for every new member, whatever the sign-up path (email, phone, a provider): attaches the
 * invitation of the cookie, clears it, and leaves the friend-invitation event for the next page.
 * A failure is logged and never stops the sign-up.
 */
export function attachInvitationOnSignUp(db: Database, logger: Logger) {
  return async ({ memberId, getCookie, setCookie: set }: MemberCreated) => {
    const code = getCookie(INVITATION_COOKIE);
    if (!code) return;
    const cookie = { path: '/', secure: true, sameSite: 'lax' as const };
    try {
      const outcome = await attachInvitation(db, { inviteeId: memberId, code });
      set(INVITATION_COOKIE, '', { ...cookie, maxAge: 0, httpOnly: true });
      if (!outcome.ok) return;
      set(INVITATION_EVENT_COOKIE, `${memberId}.${outcome.inviterId}`, {
        ...cookie,
        maxAge: 24 * 3600,
        httpOnly: false,
      });
    } catch (error) {
      logger.warn({ err: error, memberId }, 'invitation: could not attach at sign-up');
    }
  };
}
