// What the Hono server hands to React Router for each request. The keys live on globalThis because
// the server (run by tsx) and the React Router build are two module graphs that must share them.
import { createContext, type RouterContext } from 'react-router';
import type { ShopServices } from '#server/services';

import type { SessionMember } from '#modules/identity/server';

export type { SessionMember };

export interface ShopRequest {
  requestId: string;
  /** The CSP nonce for this response's inline scripts. */
  nonce: string;
  member: SessionMember | null;
  services: ShopServices;
  /**
   * Set by the server when this render can only be the busy page (the database is away, decision 054):
   * the root guard answers 503 at once and nothing reads the database.
   */
  busy?: boolean;
  /** What went wrong during this render, noted by entry.server's handleError for the server to act on. */
  faults?: { databaseUnavailable: boolean };
}

const registry = globalThis as typeof globalThis & { __oripaShopRequestContext?: RouterContext<ShopRequest> };
export const shopRequestContext: RouterContext<ShopRequest> = (registry.__oripaShopRequestContext ??=
  createContext<ShopRequest>());
