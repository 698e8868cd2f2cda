// The waiting room for hot releases (decision 087): a pack's queue, ordered by a server-drawn random order at
// the start, later arrivals behind; windows opened a batch at a time; the draw's check of the member's window
// (SQL, called by draw_execute). The door only re-exports: the rules (rules.ts), the queue (room.ts), the words.
export {
  WAITING_ROOM_REFUSAL_CODES,
  WAITING_ROOM_DRAW_REFUSAL_CODES,
  phoneKeyOf,
  estimateWaitSeconds,
  lotsLeftOf,
  type WaitingRoomRefusalCode,
  type WaitingRoomDrawRefusalCode,
  type WaitingRoomState,
} from './rules';
export { nextReadSeconds } from './reading';
export {
  joinWaitingRoom,
  waitingRoomStatus,
  leaveWaitingRoom,
  noteWaitingRoomDraw,
  drawWaitingRoomOrder,
  admitFromWaitingRoom,
  type WaitingRoomStatus,
} from './room';
export { WAITING_ROOM_REFUSAL_WORDS, WAITING_ROOM_DRAW_REFUSAL_WORDS } from './refusal-words';
