// The waiting room as use cases (decision 087) that the member's page and the API share: joining (sign-in,
// the shop's captcha when configured, a verified phone: one place per number), the member's place with the
// lots left in their window, and leaving. The note a completed draw leaves in the window is the draw's (draw.ts).
import { memberDrawnLots } from '#modules/draw';
import { memberPhoneNumber, TURNSTILE_TIMEOUT_MS, verifyTurnstile } from '#modules/identity/server';
import { refuse, type Refusal } from '#modules/kernel';
import {
  joinWaitingRoom,
  leaveWaitingRoom,
  lotsLeftOf,
  phoneKeyOf,
  waitingRoomStatus,
  type WaitingRoomRefusalCode,
  type WaitingRoomStatus,
} from '#modules/waitingroom';
import type { ShopServices } from './services';

type RoomServices = Pick<ShopServices, 'db' | 'config' | 'logger'>;

/** The member's place as pages and the API show it: the queue's state and the lots left in an open window. */
export interface MemberWaitingRoom extends WaitingRoomStatus {
  /** Lots the member may still draw (the cap less what they drew), while admitted; else null. */
  lotsLeft: number | null;
}

/**
 * The member's place in a pack's queue, with the lots left while their window is open. Also draws the order at
 * the start and moves the queue on (see waitingRoomStatus).
 * @example const room = await memberWaitingRoom(shop.services, { memberId, gachaId: 'hot-001' })
 */
export async function memberWaitingRoom(
  services: Pick<ShopServices, 'db'>,
  who: { memberId: string; gachaId: string },
): Promise<MemberWaitingRoom> {
  const status = await waitingRoomStatus(services.db, who);
  const lotsLeft =
    status.state === 'admitted'
      ? lotsLeftOf(status.cap, await memberDrawnLots(services.db, who.gachaId, who.memberId))
      : null;
  return { ...status, lotsLeft };
}

/**
 * Joins a pack's queue: the captcha first (when the shop has one), then the member's verified phone, then the
 * place. Joining again answers the same place.
 * @example const joined = await joinWaitingRoomAsMember(shop.services, { memberId, gachaId, captchaToken, address })
 */
export async function joinWaitingRoomAsMember(
  services: RoomServices,
  request: { memberId: string; gachaId: string; captchaToken?: string | null; address?: string },
): Promise<MemberWaitingRoom | Refusal<WaitingRoomRefusalCode>> {
  const { config, db } = services;
  if (config.turnstile) {
    const verification = await verifyTurnstile(request.captchaToken, request.address, {
      secretKey: config.turnstile.secretKey,
      verifyUrl: config.turnstile.verifyUrl,
      timeoutMs: TURNSTILE_TIMEOUT_MS,
    });
    if (!verification.success) {
      if (verification.errorCodes.includes('network-error'))
        services.logger.error(
          { errorCodes: verification.errorCodes },
          'waiting room: Turnstile siteverify unreachable',
        );
      return refuse('WAITING_ROOM_CAPTCHA_FAILED');
    }
  }
  const phone = await memberPhoneNumber(db, request.memberId);
  if (!phone.verified || !phone.phoneNumber) return refuse('WAITING_ROOM_PHONE_REQUIRED');
  const joined = await joinWaitingRoom(db, {
    gachaId: request.gachaId,
    memberId: request.memberId,
    phoneKey: phoneKeyOf(phone.phoneNumber, services.config.AUTH_SECRET),
  });
  if (!joined.ok) return joined;
  return memberWaitingRoom(services, request);
}

/**
 * Gives up the member's place (or ends their window). False when they were not in the queue.
 * @example await leaveWaitingRoomAsMember(shop.services, { memberId, gachaId })
 */
export function leaveWaitingRoomAsMember(
  services: Pick<ShopServices, 'db'>,
  who: { memberId: string; gachaId: string },
): Promise<boolean> {
  return leaveWaitingRoom(services.db, who);
}
