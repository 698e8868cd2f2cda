// Friends (decision 045): a request by the other member's personal code (the same code as 友達招待),
// accepted or declined by them; a list with a limit; removal by either side. One row per pair
// (member_low < member_high); both members' locks are taken in id order before any change, so two
// requests crossing each other, a double tap or two instances never make two friendships or pass the
// limit. Every action names a friendship by its id and checks that the actor is one of its two members.
// The door only re-exports (issue 30 item 1): refusals, rules and the pair's locks (pairs.ts), requests
// and decisions (requests.ts), the lists (lists.ts).
export { FRIEND_REFUSAL_CODES, type FriendRefusalCode, type FriendRules } from './pairs';
export {
  friendCodeOwner,
  friendCodeOf,
  requestFriend,
  decideFriendship,
  type FriendRequestSent,
  type FriendDecision,
} from './requests';
export { friendListsOf, friendOf, type FriendEntry, type FriendLists } from './lists';
export { friendsSettings } from './settings';
export { FRIEND_REFUSAL_WORDS } from './refusal-words';
