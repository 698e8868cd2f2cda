// The closure's use cases that need more than one module (decision 085): the notice job (the wallet's holders and
// the draw's prize boxes, told once each through the shop module), and the member's 払戻し application, whose bank
// account is sealed with the address keyring (decision 019) before the shop module stores it. The member's page
// and the admin page call these; the command line calls the admin module's actions.
import type { Database } from '#db/client';
import { parseWithMessage, RefusalError, type Refusal } from '#modules/kernel';
import { prizesHeldByMember } from '#modules/draw';
import type { SiteIdentity } from '#modules/messaging';
import { openJson, sealJson, type AddressKeyring } from '#modules/shipping';
import {
  applyForClosureRefund,
  closurePhase,
  closureRefundSealContext,
  maskedAccountNumber,
  notifiedMembersOf,
  notifyClosureMember,
  readClosure,
  refundAccountSchema,
  type ClosureRefund,
  type ClosureRefusalCode,
  type RefundAccount,
  type ShopClosure,
} from '#modules/shop';
import { holdPaidCoinExpiry, membersWithCoins } from '#modules/wallet';
import type { JobDefinition } from './jobs/runner';

/** Members told per run of the notice job (each in its own transaction). */
export const CLOSURE_NOTICES_PER_RUN = 500;

/**
 * Tells every member with a balance (paid or free coins, or prizes in their box) who was not told yet, up to
 * `limit` a run, each in a transaction of its own (exactly once: the shop module's notice row); a run that stops
 * halfway (a restart) leaves the rest to the next. Also keeps paid coins bought since the announcement from
 * expiring before the deadline. Answers how many were told.
 * @example await sendClosureNotices(db, site, { limit: 500 })
 */
export async function sendClosureNotices(
  db: Database,
  site: SiteIdentity,
  options: { limit: number; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date();
  const closure = await readClosure(db);
  if (!closure || closurePhase(closure, now) === 'refunds_over') return 0;
  await db.transaction((tx) => holdPaidCoinExpiry(tx, closure.refundDeadline));
  const [coins, prizes, told] = await Promise.all([
    membersWithCoins(db),
    prizesHeldByMember(db),
    notifiedMembersOf(db, closure.id),
  ]);
  const due = [...new Set([...coins.keys(), ...prizes.keys()])].filter((id) => !told.has(id)).sort();
  let sent = 0;
  for (const memberId of due.slice(0, options.limit)) {
    const held = coins.get(memberId);
    const created = await db.transaction((tx) =>
      notifyClosureMember(
        tx,
        site,
        closure,
        { memberId, paid: held?.paid ?? 0, free: held?.free ?? 0, prizes: prizes.get(memberId) ?? 0 },
        now,
      ),
    );
    if (created) sent += 1;
  }
  return sent;
}

/** Job `shop.closure-notices`: every minute while a closure is announced and its refund period lasts. */
export const closureNoticesJob = (site: SiteIdentity): JobDefinition => ({
  name: 'shop.closure-notices',
  cron: '* * * * *',
  handler: async ({ db, now }) => ({
    processed: await sendClosureNotices(db, site, { limit: CLOSURE_NOTICES_PER_RUN, now }),
  }),
});

/** The member's application as their page shows it: the account masked, never the whole number. */
export interface ClosureRefundView {
  id: string;
  appliedAt: string;
  bankName: string;
  branchName: string;
  accountType: string;
  accountNumberMasked: string;
  accountHolder: string;
  paidAt: string | null;
  paidCoins: number | null;
  refundJpy: number | null;
}

/**
 * Opens an application's bank account (the member's own page, and staff's list, which audits the view).
 * @example const account = openRefundAccount(keyring, refund)
 */
export function openRefundAccount(keyring: AddressKeyring, refund: ClosureRefund): RefundAccount {
  return openJson(
    keyring,
    refund.sealedAccount,
    closureRefundSealContext(refund.closureId, refund.memberId),
  ) as RefundAccount;
}

/** @example const view = closureRefundView(keyring, refund) */
export function closureRefundView(keyring: AddressKeyring, refund: ClosureRefund): ClosureRefundView {
  const account = openRefundAccount(keyring, refund);
  return {
    id: refund.id,
    appliedAt: refund.appliedAt.toISOString(),
    bankName: account.bankName,
    branchName: account.branchName,
    accountType: account.accountType,
    accountNumberMasked: maskedAccountNumber(account.accountNumber),
    accountHolder: account.accountHolder,
    paidAt: refund.paidAt ? refund.paidAt.toISOString() : null,
    paidCoins: refund.paidCoins,
    refundJpy: refund.refundJpy,
  };
}

/**
 * A member applies for the 払戻し (or changes the account before the transfer): the form is read by the shop
 * module's schema (Japanese messages per field), the account sealed for this member and closure, and stored.
 * Answers the field messages of a bad form (nothing written), or the application.
 * @example const outcome = await applyForRefund(db, keyring, closure, member.id, form)
 */
export async function applyForRefund(
  db: Database,
  keyring: AddressKeyring,
  closure: ShopClosure,
  memberId: string,
  form: Record<string, string | undefined>,
  now = new Date(),
): Promise<
  | { ok: false; message: string; fields: Record<string, string> }
  | { ok: false; refusal: Refusal<ClosureRefusalCode> }
  | { ok: true; refund: ClosureRefund; created: boolean }
> {
  const parsed = parseWithMessage(refundAccountSchema, form);
  if (!parsed.ok) return { ok: false, message: parsed.message, fields: parsed.fields };
  const { sealed, keyId } = sealJson(keyring, parsed.data, closureRefundSealContext(closure.id, memberId));
  try {
    const outcome = await db.transaction((tx) =>
      applyForClosureRefund(tx, { closure, memberId, sealedAccount: sealed, keyId }, now),
    );
    return { ok: true, ...outcome };
  } catch (error) {
    if (error instanceof RefusalError) return { ok: false, refusal: error.refusal as Refusal<ClosureRefusalCode> };
    throw error;
  }
}
