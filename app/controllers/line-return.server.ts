// /mypage/backfromline and /mypage/backfromlinecampaign: a member links LINE from the website and
// LINE sends them back here. The campaign variant (LINE_CAMPAIGN_ID) rewards the link once, with
// LINE_CAMPAIGN_REWARD_COINS free coins: once per member and once per LINE account (unlinking and
// linking the same LINE account to another member earns nothing), a ledger entry keyed by both.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { lineOn } from './social-sign-in.server';
import { LineLinkError, lineLinkErrorMessage, linkedLineAccount, startLineLink } from '#modules/identity/server';
import { grantCoins, IdempotencyKeyConflict } from '#modules/wallet';
import { describeRefusal } from '#modules/refusals';

export type LineReturnVariant = 'plain' | 'campaign';

export type LineReturnData =
  | { state: 'start'; variant: LineReturnVariant; available: boolean; reward: number; linked: boolean }
  | { state: 'linked'; variant: LineReturnVariant; reward: number; rewarded: 'now' | 'before' | 'none' }
  | { state: 'failed'; variant: LineReturnVariant; message: string };

const pathOf = (variant: LineReturnVariant) =>
  variant === 'campaign' ? '/mypage/backfromlinecampaign' : '/mypage/backfromline';

/** The campaign's reward now: LINE_CAMPAIGN_REWARD_COINS while a campaign is set, else 0. */
function rewardOf(shop: ShopRequest, variant: LineReturnVariant) {
  const { LINE_CAMPAIGN_ID, LINE_CAMPAIGN_REWARD_COINS } = shop.services.config;
  return variant === 'campaign' && LINE_CAMPAIGN_ID ? LINE_CAMPAIGN_REWARD_COINS : 0;
}

/**
 * Grants the campaign reward for this member's LINE account, exactly once: the key names the
 * campaign and the LINE account, so a second member linking the same LINE account is refused by the
 * wallet (GRANT_KEY_REUSED) and a repeat by the same member replays the first grant.
 */
async function rewardLink(shop: ShopRequest, lineUserId: string): Promise<'now' | 'before'> {
  const { config, db } = shop.services;
  try {
    const grant = await grantCoins(db, {
      memberId: shop.member!.id,
      kind: 'free',
      amount: config.LINE_CAMPAIGN_REWARD_COINS,
      reason: 'line_campaign',
      counterAccount: 'promotion',
      idempotencyKey: `line-campaign:${config.LINE_CAMPAIGN_ID}:${lineUserId}`,
      lifetimeDays: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
    });
    return grant.replay ? 'before' : 'now';
  } catch (error) {
    if (error instanceof IdempotencyKeyConflict) return 'before';
    throw error;
  }
}

export async function lineReturnLoader(shop: ShopRequest, request: Request, variant: LineReturnVariant) {
  const url = new URL(request.url);
  if (!shop.member) throw visitorAnswer(request);
  const reward = rewardOf(shop, variant);
  const error = url.searchParams.get('error');
  if (error !== null)
    return data<LineReturnData>({ state: 'failed', variant, message: lineLinkErrorMessage(error) }, { status: 400 });
  const linked = await linkedLineAccount(shop.services.db, shop.member.id);
  if (url.searchParams.get('done') === '1' && linked) {
    const rewarded = reward > 0 ? await rewardLink(shop, linked.lineUserId) : 'none';
    return data<LineReturnData>({ state: 'linked', variant, reward, rewarded });
  }
  // The channel's keys, or the LINE stand-in of a sandbox shop (the same test as the sign-in buttons').
  const available = lineOn(shop.services);
  return data<LineReturnData>({ state: 'start', variant, available, reward, linked: Boolean(linked) });
}

/** 「LINEと連携する」: to LINE's consent page; back to this page with ?done=1 or ?error=…. */
export async function lineReturnAction(shop: ShopRequest, request: Request, variant: LineReturnVariant) {
  const url = new URL(request.url);
  if (!shop.member) throw redirect(signInPathFor(url.pathname));
  const path = pathOf(variant);
  try {
    const { url: lineUrl, setCookies } = await startLineLink(shop.services.auth, {
      headers: request.headers,
      callbackURL: `${path}?done=1`,
      errorCallbackURL: path,
    });
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
    throw redirect(lineUrl, { headers });
  } catch (thrown) {
    if (thrown instanceof LineLinkError) {
      // Already linked: the same page as a finished link (the campaign rewards it once).
      if (thrown.code === 'ALREADY_LINKED') throw redirect(`${path}?done=1`);
      const { status, message } = describeRefusal(thrown.refusal);
      return data<LineReturnData>({ state: 'failed', variant, message }, { status: status >= 500 ? 503 : status });
    }
    throw thrown;
  }
}
