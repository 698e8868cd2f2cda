// The friends as the farm and the friends page show them (decisions 044 and 045): browser-safe shapes,
// built by the server (server/farm.ts) and read by the pages.

/** A friend as the farm and the friends page list them. */
export interface FriendView {
  /** The friendship's id: every friend action names it (never a member id). */
  friendshipId: number;
  nickname: string;
  /** When they became friends (ISO). */
  since: string;
  /** The member watered this friend's farm today (Japan time). */
  wateredToday: boolean;
  /** How many of the friend's plots are growing (watering helps one of them). */
  growingPlots: number;
}

/** A request waiting for an answer: one the member received, or one they sent. */
export interface FriendRequestView {
  friendshipId: number;
  nickname: string;
  requestedAt: string;
}

export interface FriendsView {
  /** The member's own code (the same personal code as 友達招待). */
  code: string;
  /** /app/friends/add?code=… on the shop's origin: opens the page with the code filled in. */
  link: string;
  /** LINE and X share addresses for the link. */
  share: { line: string; x: string };
  limit: number;
  friends: FriendView[];
  incoming: FriendRequestView[];
  outgoing: FriendRequestView[];
  /** Coins each side gets when one waters the other's farm. */
  friendWaterCoins: number;
}
