// The waiting room's queue through its SQL (decision 087): joining, the member's state (which also draws
// the order at the start and moves the queue on), leaving, and the note a completed draw leaves.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { refuse, type Refusal } from '#modules/kernel';
import { estimateWaitSeconds, type WaitingRoomRefusalCode, type WaitingRoomState } from './rules';

/** A member's place as the page shows it. Times are ISO strings. */
export interface WaitingRoomStatus {
  state: WaitingRoomState;
  startsAt: string | null;
  /** Lots each member may draw in the release (the pack's per-member limit). */
  cap: number | null;
  windowSeconds: number | null;
  batch: number | null;
  /** The member's place (1 = first), once the order is drawn or they are admitted. */
  place: number | null;
  /** Places not yet admitted before the member's, while waiting. */
  ahead: number | null;
  /** Seconds until the member's turn, while waiting (an estimate). */
  estimateSeconds: number | null;
  orderedCount: number;
  windowOpenedAt: string | null;
  windowClosesAt: string | null;
  lotsDrawn: number;
  now: string;
}

interface PollRow {
  state: WaitingRoomState;
  startsAt: string | null;
  cap: number | null;
  windowSeconds: number | null;
  batch: number | null;
  place: number | null;
  ahead: number | null;
  orderedCount: number;
  admittedThrough: number;
  secondsSinceOrder: number | null;
  windowOpenedAt: string | null;
  windowClosesAt: string | null;
  windowEndedAt: string | null;
  lotsDrawn: number;
  now: string;
}

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/**
 * Joins a pack's queue under the member's verified number (its key, `phoneKeyOf`). Joining twice is
 * harmless (`joined: false`); a second member with the same number is refused.
 * @example const joined = await joinWaitingRoom(db, { gachaId: 'hot-001', memberId, phoneKey: phoneKeyOf(phone) })
 */
export async function joinWaitingRoom(
  db: Database,
  entry: { gachaId: string; memberId: string; phoneKey: string; now?: Date },
): Promise<{ ok: true; joined: boolean } | Refusal<WaitingRoomRefusalCode>> {
  const [row] = await queryRows<{ answer: { joined?: boolean; code?: WaitingRoomRefusalCode } }>(
    db,
    sql`select waiting_room_join(${entry.gachaId}, ${entry.memberId}, ${entry.phoneKey}, ${entry.now?.toISOString() ?? null}::timestamptz) as answer`,
  );
  const answer = row!.answer;
  if (answer.code) return refuse(answer.code, { gachaId: entry.gachaId });
  return { ok: true, joined: answer.joined === true };
}

/**
 * The member's state in the queue, in one database call: the order drawn if the start has passed (the first
 * call after it, on any instance, draws it), the queue moved on while the member waits, and the estimate.
 * @example const status = await waitingRoomStatus(db, { gachaId: 'hot-001', memberId })
 */
export async function waitingRoomStatus(
  db: Database,
  who: { gachaId: string; memberId: string; now?: Date },
): Promise<WaitingRoomStatus> {
  const [row] = await queryRows<{ status: PollRow }>(
    db,
    sql`select waiting_room_poll(${who.gachaId}, ${who.memberId}, ${who.now?.toISOString() ?? null}::timestamptz) as status`,
  );
  const s = row!.status;
  const waiting = s.state === 'waiting' && s.ahead !== null;
  return {
    state: s.state,
    startsAt: iso(s.startsAt),
    cap: s.cap ?? null,
    windowSeconds: s.windowSeconds ?? null,
    batch: s.batch ?? null,
    place: s.place ?? null,
    ahead: waiting ? s.ahead : null,
    estimateSeconds: waiting
      ? estimateWaitSeconds({
          ahead: s.ahead!,
          batch: s.batch!,
          windowSeconds: s.windowSeconds!,
          admitted: s.admittedThrough,
          secondsSinceOrder: Number(s.secondsSinceOrder ?? 0),
        })
      : null,
    orderedCount: s.orderedCount ?? 0,
    windowOpenedAt: iso(s.windowOpenedAt),
    windowClosesAt: iso(s.windowEndedAt ?? s.windowClosesAt),
    lotsDrawn: s.lotsDrawn ?? 0,
    now: iso(s.now)!,
  };
}

/**
 * Gives up the member's place (or ends their window now). False when they were not in the queue.
 * @example await leaveWaitingRoom(db, { gachaId: 'hot-001', memberId })
 */
export async function leaveWaitingRoom(
  db: Database,
  who: { gachaId: string; memberId: string; now?: Date },
): Promise<boolean> {
  const [row] = await queryRows<{ left: boolean }>(
    db,
    sql`select waiting_room_leave(${who.gachaId}, ${who.memberId}, ${who.now?.toISOString() ?? null}::timestamptz) as left`,
  );
  return row!.left;
}

/**
 * After a completed draw on a pack with a waiting room: counts its lots in the member's window and ends the
 * window when they reach the cap, so the next member's turn comes at once. (The cap itself is held by the
 * draw, in its own transaction; this only frees the slot early.)
 * @example await noteWaitingRoomDraw(db, { gachaId: 'hot-001', memberId, count: 1, cap: 2 })
 */
export async function noteWaitingRoomDraw(
  db: Database,
  draw: { gachaId: string; memberId: string; count: number; cap: number; now?: Date },
): Promise<void> {
  await db.execute(
    sql`select waiting_room_note_draw(${draw.gachaId}, ${draw.memberId}, ${draw.count}::int, ${draw.cap}::int, ${draw.now?.toISOString() ?? null}::timestamptz)`,
  );
}

/**
 * Draws the queue's order if the start has passed and nobody has (exactly once, whoever calls): the places
 * given, or -1 when it was drawn already or is being drawn. The member's status does this by itself; a
 * test or an operator may call it directly.
 * @example const placed = await drawWaitingRoomOrder(db, 'hot-001')
 */
export async function drawWaitingRoomOrder(db: Database, gachaId: string, now?: Date): Promise<number> {
  const [row] = await queryRows<{ placed: number }>(
    db,
    sql`select waiting_room_draw_order(${gachaId}, ${now?.toISOString() ?? null}::timestamptz) as placed`,
  );
  return Number(row!.placed);
}

/**
 * Opens windows until `batch` are open (the next places in order): how many it opened.
 * @example const opened = await admitFromWaitingRoom(db, { gachaId: 'hot-001', batch: 50, windowSeconds: 180 })
 */
export async function admitFromWaitingRoom(
  db: Database,
  room: { gachaId: string; batch: number; windowSeconds: number; now?: Date },
): Promise<number> {
  const [row] = await queryRows<{ opened: number }>(
    db,
    sql`select waiting_room_admit(${room.gachaId}, ${room.batch}::int, ${room.windowSeconds}::int, ${room.now?.toISOString() ?? null}::timestamptz) as opened`,
  );
  return Number(row!.opened);
}
