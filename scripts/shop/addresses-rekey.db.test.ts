// `npm run shop -- addresses:rekey` after a key rotation: every address moves to the first key, a
// repeat does nothing, and a bad line is refused in Japanese before anything is written.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { addressInputSchema, createAddress, listAddresses, type AddressKeyring } from '#modules/shipping';
import { runAdminCommand, UsageError } from './run';

const handle = useTestDatabase('cli-rekey');
const k1 = { id: 'k1', secret: randomBytes(32) };
const k2 = { id: 'k2', secret: randomBytes(32) };

async function run(addressKeyring: AddressKeyring | undefined, ...args: string[]) {
  const lines: string[] = [];
  await runAdminCommand(handle.db, args, (line) => lines.push(line), {
    lifetimes: TEST_RULES.coinLifetimes,
    addressKeyring,
  });
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('addresses:rekey', () => {
  it('seals every address under the first key in batches, then has nothing left to do', async () => {
    const member = await createMember(handle.db);
    for (const name of ['一', '二', '三'])
      await createAddress(
        handle.db,
        [k1],
        member,
        addressInputSchema.parse({
          name: `住所${name}`,
          nameKana: 'ジュウショ',
          postalCode: '1000001',
          prefecture: '東京都',
          city: '千代田区',
          town: '千代田1-1',
          phone: '0312345678',
        }),
      );
    expect(await run([k2, k1], 'addresses:rekey', '--batch', '2')).toEqual([{ keyId: 'k2', rekeyed: 3, remaining: 0 }]);
    expect((await listAddresses(handle.db, [k2], member)).map((a) => a.name)).toEqual(['住所一', '住所二', '住所三']);
    expect(await run([k2, k1], 'addresses:rekey')).toEqual([{ keyId: 'k2', rekeyed: 0, remaining: 0 }]);
  });

  it('refuses a bad batch size and a missing keyring in Japanese', async () => {
    await expect(run([k2], 'addresses:rekey', '--batch', '0')).rejects.toThrow(UsageError);
    await expect(run([k2], 'addresses:rekey', '--batch', '1e3')).rejects.toThrow(/--batch/);
    await expect(run(undefined, 'addresses:rekey')).rejects.toThrow(/ADDRESS_ENCRYPTION_KEYS/);
  });
});
