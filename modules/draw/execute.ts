// Drawing: the one database call that draws (a member, or the API's session inside the call), its
// retry on serialisation conflicts, and reading a result back.
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { draws } from './schema';
import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from '#modules/identity';
import { isUuid, refuse } from '#modules/kernel';
import {
  type DrawOutcome,
  type DrawReceiptState,
  type DrawRefusalCode,
  type DrawResult,
  type PrizeItem,
  drawRequestHash,
} from './contract';

const RETRYABLE = new Set(['40001', '40P01', '55P03']);

/** The SQLSTATE of a database error, wrapped by Drizzle or not. */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawAnswer {
  status: 'completed' | 'refused' | 'rejected';
  drawId?: string;
  code?: DrawRefusalCode;
  details?: Record<string, unknown>;
  replay?: boolean;
  gachaId?: string;
  count?: number;
  cost?: number;
  lastOne?: boolean;
  createdAt?: string;
  items?: PrizeItem[];
  balance?: { paid: number; free: number };
  receipt?: DrawReceiptState;
}

function toOutcome(raw: RawAnswer): DrawOutcome {
  if (raw.status === 'completed') {
    return {
      ok: true,
      result: {
        drawId: raw.drawId!,
        gachaId: raw.gachaId!,
        count: raw.count!,
        cost: raw.cost!,
        lastOne: Boolean(raw.lastOne),
        createdAt: new Date(raw.createdAt!).toISOString(),
        replay: Boolean(raw.replay),
        kiriban: (raw.items ?? [])
          .flatMap((item) => (item.kiriban == null ? [] : [item.kiriban]))
          .sort((a, b) => a - b),
        items: (raw.items ?? []).map((item) => ({
          ...item,
          kiriban: item.kiriban ?? null,
          personalKiriban: item.personalKiriban ?? null,
          pitariOf: item.pitariOf ?? null,
          ceilingNo: item.ceilingNo ?? null,
          decideBy: new Date(item.decideBy).toISOString(),
        })),
        balance: raw.balance ?? { paid: 0, free: 0 },
        ...(raw.receipt ? { receipt: raw.receipt } : {}),
      },
    };
  }
  return { ...refuse(raw.code!, raw.details ?? {}), stored: raw.status === 'refused', drawId: raw.drawId };
}

/** The window in which better-auth would extend a session (a draw then goes the slower way). */
const REFRESH_BEFORE = `${SESSION_MAX_AGE_SECONDS - SESSION_UPDATE_AGE_SECONDS} seconds`;

export interface DrawInput {
  memberId: string;
  gachaId: string;
  count: number;
  /** The client's Idempotency-Key (1–255 characters). */
  idempotencyKey: string;
  /** The member's rank, needed only for packs with a minimum rank. */
  rank?: number;
  /** Days a prize waits for the member's choice (PRIZE_DECISION_DAYS): the shop's setting, always passed. */
  decisionDays: number;
  now?: Date;
}

/**
 * Draws `count` lots in one database call and one transaction. Retries the call itself when the
 * database asks (end-of-pack contention, deadlock); a retry is safe because nothing committed.
 * @example const outcome = await drawLots(db, { memberId, gachaId: 'stellar-pokemon-001', count: 10, idempotencyKey })
 */
export async function drawLots(db: Database, input: DrawInput): Promise<DrawOutcome> {
  const hash = drawRequestHash(input.gachaId, input.count);
  if (!Number.isSafeInteger(input.decisionDays) || input.decisionDays < 1)
    throw new RangeError('decisionDays must be a positive integer');
  const days = input.decisionDays;
  const query = sql`select draw_execute(${input.memberId}::text, ${input.gachaId}::text, ${input.count}::int,
    ${input.idempotencyKey}::text, ${hash}::text, ${input.rank ?? 0}::int, ${`${days} days`}::interval,
    ${input.now ? input.now.toISOString() : null}::timestamptz) as r`;
  return runDraw(db, query) as Promise<DrawOutcome>;
}

/**
 * The API's draw in one round trip: the session token (its signature already checked) is resolved
 * inside the same database call. Answers 'refresh' when the session is due for better-auth's daily
 * extension; the caller then resolves the member the usual way and calls drawLots.
 * @example const outcome = await drawLotsForSession(db, { sessionToken, gachaId, count: 1, idempotencyKey })
 */
export async function drawLotsForSession(
  db: Database,
  input: Omit<DrawInput, 'memberId'> & { sessionToken: string },
): Promise<DrawOutcome | 'refresh'> {
  const hash = drawRequestHash(input.gachaId, input.count);
  if (!Number.isSafeInteger(input.decisionDays) || input.decisionDays < 1)
    throw new RangeError('decisionDays must be a positive integer');
  const days = input.decisionDays;
  const query = sql`select draw_execute_for_session(${input.sessionToken}::text, ${REFRESH_BEFORE}::interval, ${input.gachaId}::text,
    ${input.count}::int, ${input.idempotencyKey}::text, ${hash}::text, ${input.rank ?? 0}::int, ${`${days} days`}::interval,
    ${input.now ? input.now.toISOString() : null}::timestamptz) as r`;
  return runDraw(db, query);
}

async function runDraw(db: Database, query: ReturnType<typeof sql>): Promise<DrawOutcome | 'refresh'> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await queryRows<{ r: RawAnswer | { status: 'refresh' } }>(db, query);
      const raw = row!.r;
      return raw.status === 'refresh' ? 'refresh' : toOutcome(raw as RawAnswer);
    } catch (error) {
      const state = sqlState(error);
      if (!state || !RETRYABLE.has(state)) throw error;
      if (attempt >= 30) return { ...refuse('DRAW_BUSY'), stored: false };
      await sleep(Math.min(200, 2 + Math.random() * 4 * (attempt + 1) ** 1.5));
    }
  }
}

/**
 * A draw's result for its own member, or null (missing or someone else's: the caller answers 404).
 * @example const result = await getDrawResult(db, member.id, params.resultId)
 */
export async function getDrawResult(db: Database, memberId: string, drawId: string): Promise<DrawResult | null> {
  if (!isUuid(drawId)) return null;
  const [row] = await db
    .select({ memberId: draws.memberId, status: draws.status })
    .from(draws)
    .where(eq(draws.id, drawId));
  if (!row || row.memberId !== memberId || row.status !== 'completed') return null;
  const [answer] = await queryRows<{ r: RawAnswer }>(db, sql`select draw_answer(${drawId}::uuid, true) as r`);
  const outcome = toOutcome(answer!.r);
  return outcome.ok ? outcome.result : null;
}
