// Invitations at the edge (decision 038): the rules from the settings, /r?code=… leaving the code in a
// short-lived cookie, and the sign-up hook that attaches the invitation and leaves the analytics event.
import type { MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import type { Database } from '#db/client';
import { fingerprintKeyOf } from '#modules/risk';
import {
  INVITATION_COOKIE,
  INVITATION_COOKIE_SECONDS,
  INVITATION_EVENT_COOKIE,
  attachInvitation,
  type InvitationRules,
} from '#modules/invitation';
import { normalisePathname } from '../app/guards/rules';
import type { MemberCreated } from '#modules/identity/server';
import type { ShopConfig } from './config';
import type { Logger } from './logger';

export type InvitationConfig = Pick<
  ShopConfig,
  'INVITATION_REWARD_COINS' | 'INVITATION_MONTHLY_CAP' | 'INVITATION_CLAIM_DAYS' | 'AUTH_SECRET'
>;

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
 * GET /r?code=… (and /r/ow?code=…): the route rule still answers (/r redirects to /; /r/ow asks a visitor
 * to sign in first), and the answer also sets the invitation cookie (HttpOnly, Secure, SameSite=Lax, a week).
 */
export function invitationLinkCookie(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const path = normalisePathname(c.req.path.replace(/\.data$/, ''));
    if (path !== '/r' && path !== '/r/ow') return next();
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
