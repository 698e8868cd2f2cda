// What /app/farm and /app/friends/add load and what their actions answer (decisions 044 and 045).
// Browser-safe types and the form field names: the pages post intentions only (which plot, which
// seed, which friend), never times or amounts; the server decides and answers the farm after it.
import type { FarmActionResult, FarmView, FriendView, FriendsView } from '#modules/farm/browser';

export type {
  FarmActionResult,
  FarmView,
  FarmPlotView,
  FarmSeedView,
  FriendView,
  FriendRequestView,
  FriendsView,
} from '#modules/farm/browser';

export interface FarmLoaderData {
  farm: FarmView;
  friends: FriendView[];
  /** The member's coin balance is in the header; this is only today's farm earnings (in farm.today). */
}

export interface FriendsLoaderData {
  friends: FriendsView;
  /** The code from ?code=… (normalised), to fill in the form; null when absent or malformed. */
  codeFromLink: string | null;
  /** The owner of codeFromLink, when it is a member other than the viewer (to confirm before sending). */
  codeOwner: { nickname: string } | null;
  /** Whether the farm is paused (friends still work; watering does not). */
  farmPaused: boolean;
}

/** The farm action's form: `intent` and its fields, and `key` (a fresh id per tap; a replay answers the same). */
export const FARM_INTENTS = ['plant', 'water', 'harvest', 'clear', 'water-friend'] as const;
export type FarmIntent = (typeof FARM_INTENTS)[number];

/** The friends action's form intents. */
export const FRIEND_INTENTS = ['request', 'accept', 'decline', 'cancel', 'remove', 'water-friend'] as const;
export type FriendIntent = (typeof FRIEND_INTENTS)[number];

/** A refusal as both actions answer it: a code, the Japanese message to show, and details (nextWaterAt…). */
export interface FarmRefusalAnswer {
  ok: false;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type FarmActionAnswer = { ok: true; result: FarmActionResult } | FarmRefusalAnswer;

export type FriendActionAnswer =
  { ok: true; message: string; friends: FriendsView; farm?: FarmView } | FarmRefusalAnswer;
