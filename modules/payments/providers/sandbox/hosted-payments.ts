// The hosted sandbox's payments: reading and moving them in sandbox_payments (one row lock per move),
// their API shape, and the signed webhook each move sends.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sandboxPayments } from '../../schema';
import {
  SANDBOX_SIGNATURE_HEADER,
  sandboxSignature,
  type SandboxEventObject,
  type SandboxPaymentObject,
} from './sandbox';
import type { SandboxAppOptions } from './hosted';

type SandboxPaymentRow = typeof sandboxPayments.$inferSelect;

/** The hosted sandbox's options and its webhook transport, shared by the API and the hosted page. */
export interface SandboxHost {
  options: SandboxAppOptions;
  db: Database;
  deliver: (url: string, body: string, headers: Record<string, string>) => Promise<number>;
}

const ID = /^sbp_[A-Za-z0-9]{24}$/;
export const newId = (prefix: string) =>
  `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;

/** The payment as the API answers it. */
export const view = (host: SandboxHost, row: SandboxPaymentRow): SandboxPaymentObject => ({
  id: row.id,
  object: 'payment',
  status: row.status as SandboxPaymentObject['status'],
  amount: row.amountJpy,
  currency: 'jpy',
  amount_refunded: row.refundedJpy,
  reference: row.merchantReference,
  checkout_url: `${host.options.publicBase}/pay/${row.id}`,
});

/** Sends the event with up to three attempts, as real providers retry on failure. */
async function sendEvent(host: SandboxHost, row: SandboxPaymentRow, type: SandboxEventObject['type']) {
  const event: SandboxEventObject = {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: { payment: view(host, row) },
  };
  const body = JSON.stringify(event);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const headers = {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(host.options.webhookSecret, Math.floor(Date.now() / 1000), body),
      };
      const status = await host.deliver(row.webhookUrl, body, headers);
      if (status >= 200 && status < 300) return;
    } catch (error) {
      host.options.onDeliveryError?.(error, row.webhookUrl);
    }
    await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
  }
}
/** Sends the event after options.webhookDelayMs, without holding up the answer. */
export const scheduleEvent = (host: SandboxHost, row: SandboxPaymentRow, type: SandboxEventObject['type']) => {
  setTimeout(() => void sendEvent(host, row, type), host.options.webhookDelayMs ?? 0).unref?.();
};

/** The payment with this id, or undefined (also for an id that cannot be one). */
export async function load(host: SandboxHost, id: string) {
  if (!ID.test(id)) return undefined;
  const [row] = await host.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
  return row;
}
/** Moves a payment from one state to another; answers the row after, or undefined if it was not in `from`. */
export async function transition(
  host: SandboxHost,
  id: string,
  from: string[],
  set: Partial<typeof sandboxPayments.$inferInsert>,
) {
  return host.db.transaction(async (tx) => {
    const [row] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, id)).for('update');
    if (!row || !from.includes(row.status)) return undefined;
    const [saved] = await tx
      .update(sandboxPayments)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(sandboxPayments.id, id))
      .returning();
    return saved;
  });
}
