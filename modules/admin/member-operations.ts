// The operators' actions on members' accounts (free coins granted, the age declaration, the purchase hold,
// members created in bulk), each through runAdminAction: the change and its audit entry commit together.
import { randomBytes } from 'node:crypto';
import type { Database } from '#db/client';
import { grantCoins, type CoinKind, type CoinLifetimes, type GrantResult } from '#modules/wallet';
import { clearPurchaseHold, declareAge, purchaseProfileOf } from '#modules/payments';
import { closeRestriction, createMemberWithSession } from '#modules/identity';
import { auditTextDigest, runAdminAction, type Operator } from './audit';
import type { OperatorOutcome } from './operations';

export interface OperatorGrantInput {
  memberId: string;
  kind: CoinKind;
  amount: number;
  /** Why (shown to the member in their coin history). */
  memo: string;
  /** The operator's key: a repeat with it credits nothing (and records nothing). */
  key: string;
  lifetimes: CoinLifetimes;
}

/**
 * Grants coins to a member with a reason (`coins.grant`): free coins against promotion, paid ones
 * against adjustment. A key that already credited another grant is refused (GRANT_KEY_REUSED).
 * @example await grantCoinsAsOperator(db, operator, { memberId, kind: 'free', amount: 300, memo: 'お詫び', key: 'apology-1', lifetimes })
 */
export async function grantCoinsAsOperator(
  db: Database,
  operator: Operator,
  input: OperatorGrantInput,
): Promise<OperatorOutcome<GrantResult>> {
  return runAdminAction(db, operator, 'coins:grant', async (tx) => {
    const result = await grantCoins(tx, {
      memberId: input.memberId,
      kind: input.kind,
      amount: input.amount,
      reason: 'operator_grant',
      counterAccount: input.kind === 'paid' ? 'adjustment' : 'promotion',
      idempotencyKey: `ops:${input.key}`,
      memo: input.memo,
      lifetimeDays: input.lifetimes,
    });
    const paidBefore = result.paid - (input.kind === 'paid' ? input.amount : 0);
    const freeBefore = result.free - (input.kind === 'free' ? input.amount : 0);
    return {
      value: result,
      audit: result.replay
        ? []
        : {
            action: 'coins.grant',
            target: { type: 'member', id: input.memberId },
            before: { paid: paidBefore, free: freeBefore },
            after: {
              paid: result.paid,
              free: result.free,
              kind: input.kind,
              amount: input.amount,
              // The memo stays in the ledger (accounting law) and is shown to the member; the log keeps its digest.
              memo: auditTextDigest(input.memo),
              key: input.key,
              grantId: result.grantId,
            },
          },
    };
  });
}

export async function declareAgeAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  minor: boolean,
): Promise<OperatorOutcome<{ declaredMinor: boolean }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const before = await purchaseProfileOf(tx, memberId);
    const result = await declareAge(tx, memberId, minor, { byOperator: true });
    return {
      value: result,
      audit: {
        action: 'member.age',
        target: { type: 'member', id: memberId },
        before: { declaredMinor: before?.declaredMinor ?? null },
        after: result,
      },
    };
  });
}

/** Lifts a member's purchase hold (`member.hold.clear`); a member without a hold records nothing. */
export async function clearPurchaseHoldAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
): Promise<OperatorOutcome<{ cleared: boolean }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const before = await purchaseProfileOf(tx, memberId);
    const cleared = await clearPurchaseHold(tx, memberId);
    await closeRestriction(tx, memberId, 'hold', operator.memberId ?? operator.label);
    return {
      value: { cleared },
      audit: cleared
        ? {
            action: 'member.hold.clear',
            target: { type: 'member', id: memberId },
            before: { hold: before?.hold ?? null },
            after: { hold: null },
          }
        : [],
    };
  });
}

/** The members an entry names at most (a benchmark may make 100,000). */
const MEMBERS_NAMED_IN_ENTRY = 100;

/**
 * Members with a signed-in session and paid coins, for benchmarks and tests (`members.create`, one
 * entry for the batch). Answers each member's id, email and session token.
 * @example await createMembersAsOperator(db, operator, { count: 2, coins: 5000, prefix: 'bench', lifetimes })
 */
export async function createMembersAsOperator(
  db: Database,
  operator: Operator,
  input: { count: number; coins: number; prefix: string; lifetimes: CoinLifetimes },
): Promise<OperatorOutcome<{ id: string; email: string; token: string }[]>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const created: { id: string; email: string; token: string }[] = [];
    const sessionExpiresAt = new Date(Date.now() + 7 * 86_400_000);
    for (let i = 0; i < input.count; i++) {
      const id = `${input.prefix}-${randomBytes(8).toString('hex')}`;
      const email = `${id}@example.invalid`;
      const token = randomBytes(24).toString('base64url');
      await createMemberWithSession(tx, {
        id,
        name: `${input.prefix}${i + 1}`,
        email,
        sessionToken: token,
        sessionExpiresAt,
      });
      if (input.coins > 0) {
        await grantCoins(tx, {
          lifetimeDays: input.lifetimes,
          memberId: id,
          kind: 'paid',
          amount: input.coins,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `ops:members:${id}`,
          memo: 'ベンチマーク・テスト用',
        });
      }
      created.push({ id, email, token });
    }
    return {
      value: created,
      audit: {
        action: 'members.create',
        target: { type: 'member', id: created.length === 1 ? created[0]!.id : null },
        after: {
          count: created.length,
          coins: input.coins,
          prefix: input.prefix,
          members: created.slice(0, MEMBERS_NAMED_IN_ENTRY).map((m) => m.id),
        },
      },
    };
  });
}
