// Analytics events for a tag manager: pushed to window.dataLayer (nothing is sent unless the
// operator installs a tag that reads it). Shapes follow the specification's data (section 3).

export interface GachaEvent {
  event: 'gacha';
  user_id: string;
  gacha_id: string;
  /** The member reached the pack from the top page. */
  from_top: boolean;
  /** The member reached the pack from a genre's pack list. */
  from_gacha: boolean;
}

type Origin = { from_top: boolean; from_gacha: boolean };
const ORIGIN_KEY = 'oripa.gacha-origin';

/**
 * Where a pack was opened from, remembered per pack for the draw that may follow.
 * @example rememberGachaOrigin('stellar-pokemon-001', '/')
 */
export function rememberGachaOrigin(gachaId: string, previousPath: string | null | undefined) {
  if (!previousPath) return;
  const origin: Origin = { from_top: previousPath === '/', from_gacha: /^\/gacha\/[^/]+\/?$/.test(previousPath) };
  try {
    const all = JSON.parse(sessionStorage.getItem(ORIGIN_KEY) ?? '{}') as Record<string, Origin>;
    all[gachaId] = origin;
    sessionStorage.setItem(ORIGIN_KEY, JSON.stringify(all));
  } catch {
    // Storage may be unavailable (private mode): the event then says neither.
  }
}

/** @example gachaEvent('m1', 'stellar-pokemon-001') // { event: 'gacha', …, from_top: true, from_gacha: false } */
export function gachaEvent(userId: string, gachaId: string): GachaEvent {
  let origin: Origin = { from_top: false, from_gacha: false };
  try {
    origin = (JSON.parse(sessionStorage.getItem(ORIGIN_KEY) ?? '{}') as Record<string, Origin>)[gachaId] ?? origin;
  } catch {
    // as above
  }
  return { event: 'gacha', user_id: userId, gacha_id: gachaId, ...origin };
}

/** Pushes an event for the tag manager. */
export function track(event: { event: string }) {
  const w = window as unknown as { dataLayer?: unknown[] };
  (w.dataLayer ??= []).push(event);
}

/** The friend-invitation event (specification section 3), pushed once when an invitation is attached. */
export interface FriendInvitationEvent {
  event: 'friend_invitation';
  invitee_user_id: string;
  inviter_user_id: string;
}

/** @example friendInvitationEvent('m2', 'm1') // { event: 'friend_invitation', invitee_user_id: 'm2', inviter_user_id: 'm1' } */
export const friendInvitationEvent = (inviteeId: string, inviterId: string): FriendInvitationEvent => ({
  event: 'friend_invitation',
  invitee_user_id: inviteeId,
  inviter_user_id: inviterId,
});

/** The one-shot cookie the sign-up leaves (modules/invitation INVITATION_EVENT_COOKIE): `<invitee>.<inviter>`. */
const INVITATION_EVENT_COOKIE = 'oripa_invite_event';

/**
 * Turns the sign-up's one-shot cookie into the friend-invitation event, once, and deletes the cookie.
 * Answers the event pushed, or null.
 * @example pushInvitationEventFromCookie() // after a sign-up through /r?code=…
 */
export function pushInvitationEventFromCookie(): FriendInvitationEvent | null {
  const entry = document.cookie.split(';').find((part) => part.trim().startsWith(`${INVITATION_EVENT_COOKIE}=`));
  if (!entry) return null;
  document.cookie = `${INVITATION_EVENT_COOKIE}=; Max-Age=0; Path=/; Secure; SameSite=Lax`;
  const [inviteeId, inviterId] = decodeURIComponent(entry.trim().slice(INVITATION_EVENT_COOKIE.length + 1)).split('.');
  if (!inviteeId || !inviterId) return null;
  const event = friendInvitationEvent(inviteeId, inviterId);
  track(event);
  return event;
}
