// `npm run shop -- shipping:rekey` after a key rotation: every shipping request's copy of its address
// moves to the first key, a repeat does nothing, and a missing keyring or a bad batch is refused.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES } from '#tests/fixtures';
import { shippingMember, testShippingRules } from '#tests/shipping';
import { createShippingRequest, getShippingRequest, type AddressKeyring } from '#modules/shipping';
import { runAdminCommand, UsageError } from './run';

const handle = useTestDatabase('cli-shipping-rekey');

async function run(addressKeyring: AddressKeyring | undefined, ...args: string[]) {
  const lines: string[] = [];
  await runAdminCommand(handle.db, args, (line) => lines.push(line), {
    lifetimes: TEST_RULES.coinLifetimes,
    addressKeyring,
  });
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('shipping:rekey', () => {
  it('seals every request’s address under the first key, then has nothing left to do', async () => {
    const rules = testShippingRules();
    const member = await shippingMember(handle.db, rules, { prizes: 2 });
    const made = await createShippingRequest(handle.db, rules, {
      memberId: member.memberId,
      addressId: member.addressId,
      prizeIds: member.prizeIds,
      idempotencyKey: randomUUID(),
    });
    if (!made.ok) throw new Error(made.code);
    const next = { id: 'next', secret: Buffer.alloc(32, 7) };
    const rotated = [next, ...rules.keyring];
    expect(await run(rotated, 'shipping:rekey', '--batch', '1')).toEqual([{ keyId: 'next', rekeyed: 1, remaining: 0 }]);
    expect(await run(rotated, 'shipping:rekey')).toEqual([{ keyId: 'next', rekeyed: 0, remaining: 0 }]);
    expect(await getShippingRequest(handle.db, { keyring: [next] }, member.memberId, made.request.id)).toMatchObject({
      address: { prefecture: '東京都' },
    });
  });

  it('refuses without the keyring or with a bad batch size', async () => {
    await expect(run(undefined, 'shipping:rekey')).rejects.toThrow(/ADDRESS_ENCRYPTION_KEYS/);
    await expect(run(testShippingRules().keyring, 'shipping:rekey', '--batch', '0')).rejects.toThrow(UsageError);
  });
});
