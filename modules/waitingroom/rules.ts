// The waiting room's pure rules (decision 087): its refusal codes, the phone's key (one place per verified
// number), the member's state as the page shows it, and the estimate of the wait.
import { createHmac } from 'node:crypto';

/** What joining a waiting room can answer besides a place (the server adds the sign-in, captcha and phone checks). */
export const WAITING_ROOM_REFUSAL_CODES = [
  'WAITING_ROOM_NOT_FOUND',
  'WAITING_ROOM_CLOSED',
  'WAITING_ROOM_PHONE_TAKEN',
  'WAITING_ROOM_LEFT',
  'WAITING_ROOM_PHONE_REQUIRED',
  'WAITING_ROOM_CAPTCHA_FAILED',
] as const;
export type WaitingRoomRefusalCode = (typeof WAITING_ROOM_REFUSAL_CODES)[number];

/** What the draw answers on a pack with a waiting room when the member's window is not open (draw_execute). */
export const WAITING_ROOM_DRAW_REFUSAL_CODES = [
  'WAITING_ROOM_NOT_JOINED',
  'WAITING_ROOM_NOT_YOUR_TURN',
  'WAITING_ROOM_WINDOW_CLOSED',
] as const;
export type WaitingRoomDrawRefusalCode = (typeof WAITING_ROOM_DRAW_REFUSAL_CODES)[number];

/**
 * The key a verified number takes a place under: an HMAC-SHA-256 under a key derived from the shop's AUTH_SECRET,
 * so the queue never stores the number and the key cannot be found by hashing every number (a plain SHA-256 of a
 * phone number is guessed in minutes). Stable across restarts and instances; the digits alone count
 * (「０９０－１２３４」 and "0901234" are one number).
 * @example phoneKeyOf('+819012345678', config.AUTH_SECRET) // 'f1c3…' (64 hex digits)
 */
export function phoneKeyOf(phoneNumber: string, authSecret: string): string {
  const key = createHmac('sha256', authSecret).update('oripa-waiting-room-phone-v1').digest();
  return createHmac('sha256', key)
    .update(phoneNumber.normalize('NFKC').replace(/[^\d+]/g, ''))
    .digest('hex');
}

/**
 * A member's state in a pack's queue: not in it, in it before the start (the order not yet drawn), waiting
 * with a place, in their window, done (the window over), left, or the pack closed (sold out or ended).
 */
export type WaitingRoomState =
  'none' | 'not_joined' | 'registered' | 'waiting' | 'admitted' | 'done' | 'left' | 'closed';

/**
 * Seconds until a waiting member's turn, rounded up to 10 s: the places ahead and the member's own over the
 * queue's pace (the member next in line still waits for a window to end). The pace is
 * what the queue has done since the order (members admitted a second), never slower than its worst case,
 * every window used to the end (batch windows per window length).
 * @example estimateWaitSeconds({ ahead: 100, batch: 50, windowSeconds: 180, admitted: 0, secondsSinceOrder: 0 }) // 370
 */
export function estimateWaitSeconds(queue: {
  ahead: number;
  batch: number;
  windowSeconds: number;
  admitted: number;
  secondsSinceOrder: number;
}): number {
  const worstPace = queue.batch / queue.windowSeconds;
  // The first batch is admitted at once: the pace so far counts only what came after it.
  const observed =
    queue.secondsSinceOrder >= 5 ? Math.max(queue.admitted - queue.batch, 0) / queue.secondsSinceOrder : 0;
  const pace = Math.max(worstPace, observed);
  return Math.ceil((Math.max(queue.ahead, 0) + 1) / pace / 10) * 10;
}

/**
 * Lots a member may still draw in their window: the cap less what they drew (the draw's own count).
 * @example lotsLeftOf(10, 3) // 7
 */
export function lotsLeftOf(cap: number | null, drawn: number): number {
  return cap === null ? 0 : Math.max(cap - drawn, 0);
}
