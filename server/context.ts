// The server's one door for the React Router app (decision 066): what the Hono server hands to React
// Router for each request (the request context, `ShopRequest` with the member and the services), and
// the server's use cases and rules the page controllers call, named one by one. `app/` imports
// `#server/context` and nothing else of `server/` (eslint.config.js). The context's keys live on
// globalThis because the server (run by tsx) and the React Router build are two module graphs that
// must share them.
import { createContext, type RouterContext } from 'react-router';
import type { ShopServices } from './services';
import type { Database } from '#db/client';

import type { SessionMember } from '#modules/identity/server';

export type { SessionMember };

export interface ShopRequest {
  requestId: string;
  /** The CSP nonce for this response's inline scripts. */
  nonce: string;
  member: SessionMember | null;
  /**
   * This render is the members' shared shell of a catalogue page (decision 077): `member` is null, so no
   * loader reads anyone's data, and the root answers placeholders the header renders as markers, which the
   * server fills per member.
   */
  personalShell?: boolean;
  services: ShopServices;
  /**
   * The database the catalogue's reads use in this request: a replica when it is close and holds this
   * browser's last write, else the primary (decision 075). Read it through `catalogueDb(shop)`.
   */
  catalogue?: Database;
  /**
   * Set by the server when this render can only be the busy page (the database is away, decision 054):
   * the root guard answers 503 at once and nothing reads the database.
   */
  busy?: boolean;
  /** What went wrong during this render, noted by entry.server's handleError for the server to act on. */
  faults?: { databaseUnavailable: boolean };
  /** The matched route's pattern, noted during the render for the request metrics (decision 072). */
  observed?: { route?: string };
}

const registry = globalThis as typeof globalThis & { __oripaShopRequestContext?: RouterContext<ShopRequest> };
export const shopRequestContext: RouterContext<ShopRequest> = (registry.__oripaShopRequestContext ??=
  createContext<ShopRequest>());

/**
 * The database for reads that may lag a moment (the catalogue, rankings, reveal files): the request's
 * replica choice, or the primary. Never for a member's own data or anything a write depends on.
 * @example const packs = await listGachas(catalogueDb(shop), { sort })
 */
export const catalogueDb = (shop: ShopRequest): Database => shop.catalogue ?? shop.services.db;

// What the page controllers call on the server, by concern (each file says why it lives there).
export type { ShopServices } from './services';
export type { ShopConfig } from './config';
export { contentOf, footerLineOf, footerNoteOf, safeDocument, FOOTER_NOTE_PAGE } from './page-content';
export { devToolsAllowed } from './dev-tools';
export { applyForRefund, closureRefundView, openRefundAccount, type ClosureRefundView } from './closure';
export { drawForMember } from './draw';
export {
  joinWaitingRoomAsMember,
  leaveWaitingRoomAsMember,
  memberWaitingRoom,
  type MemberWaitingRoom,
} from './waiting-room';
export { drawBeaconBody, type DrawBeaconBody } from './draw-proof';
export {
  farmOf,
  farmNow,
  farmRateLimit,
  friendsViewOf,
  friendViewsOf,
  runFarmIntent,
  runFriendIntent,
  type FarmIntentInput,
} from './farm';
export { cookieValue, invitationRulesOf, invitationViewOf } from './invitation';
export { loginBonusRules } from './login-bonus';
export { mailClaimRules, shopMailboxOptions } from './mailbox';
export { countMailRecipients } from './mail-segments';
export { discardUploadedImage, mediaStoreOf, siteImageExists, storeOriginalPhoto, storeUploadedImage } from './media';
export { eraseMemberData, finishMemberErasure, type ErasureFollowUp } from './personal-data';
export { rankRulesOf } from './progression';
export { boardView, BOARD_PATHS, type BoardLine } from './rankings';
export { limitsViewOf, selfLimitStateOf, type SelfLimitSummary } from './self-limits';
export { shippingRulesOf } from './shipping';
export { supportRulesOf } from './support';
export { memberStatementOf, type MemberStatement, type StatementRestriction } from './standing';
