// The login bonus on the pages (decision 033): today's card for /mypage and /myinbox/bonus/logs, the
// claim action both post to, and the history of /myinbox/bonus/logs.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { claimLoginBonus, isJstDay, listLoginBonusClaims, loginBonusStateOf, tableDayOf } from '#modules/bonus';
import { isStaffRole } from '#modules/identity';
import { describeRefusal } from '#modules/refusals';
import { loginBonusRules } from '#server/context';

import type { LoginBonusActionData, LoginBonusCardData } from '~/components/LoginBonusCard';

/** What the card shows; null for staff (they cannot claim) and when the bonus is off. */
export async function loginBonusCardOf(shop: ShopRequest): Promise<LoginBonusCardData | null> {
  if (!shop.member || isStaffRole(shop.member.role)) return null;
  const rules = loginBonusRules(shop.services.config);
  if (rules.streakCoins.length === 0) return null;
  const state = await loginBonusStateOf(shop.services.db, shop.member.id, rules);
  return {
    claimed: state.claimed,
    coins: state.coins,
    streakDay: state.streakDay,
    tableDay: tableDayOf(rules, state.streakDay),
    streakCoins: [...rules.streakCoins],
  };
}

/** The claim button's action: once per Japan-time day; a refusal answers its Japanese words and status. */
export async function loginBonusAction(shop: ShopRequest, request: Request) {
  if (!shop.member) {
    const path = new URL(request.url).pathname;
    throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  }
  const outcome = await claimLoginBonus(shop.services.db, shop.member.id, loginBonusRules(shop.services.config));
  if (!outcome.ok) {
    const refused = describeRefusal(outcome);
    return data<LoginBonusActionData>(
      { ok: false, code: outcome.code, message: refused.message },
      { status: refused.status },
    );
  }
  return data<LoginBonusActionData>({
    ok: true,
    coins: outcome.coins,
    streakDay: outcome.streakDay,
    message: `ログインボーナス ${outcome.coins.toLocaleString('ja-JP')}コインを受け取りました（連続${outcome.streakDay}日目）。`,
  });
}

export const LOGIN_BONUS_LOG_PAGE = 20;

/** A page of the member's own history, newest day first; a bad `before` starts at the top. */
export async function loginBonusLogOf(shop: ShopRequest & { member: NonNullable<ShopRequest['member']> }, url: URL) {
  const beforeText = url.searchParams.get('before') ?? '';
  const before = isJstDay(beforeText) ? beforeText : undefined;
  const page = await listLoginBonusClaims(shop.services.db, shop.member.id, { limit: LOGIN_BONUS_LOG_PAGE, before });
  return {
    items: page.items.map((item) => ({ ...item, claimedAt: item.claimedAt.toISOString() })),
    nextBefore: page.nextBefore,
    paged: Boolean(before),
  };
}
