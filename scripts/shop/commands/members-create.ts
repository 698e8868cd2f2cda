// members:create: members with a signed-in session and paid coins, for benchmarks and tests.
import { writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createMemberWithSession } from '#modules/identity';
import { grantCoins } from '#modules/wallet';
import { integerOption } from '../args';
import type { ShopCommand } from '../command';

export const membersCreate: ShopCommand = {
  name: 'members:create',
  usage: '--count N [--coins C] [--prefix P] [--out file.json]',
  options: {
    count: { type: 'string' },
    coins: { type: 'string' },
    prefix: { type: 'string' },
    out: { type: 'string' },
  },
  async run({ db, out, lifetimes }, { values }) {
    const count = integerOption(values, 'count', { min: 1, max: 100_000 });
    const coins = integerOption(values, 'coins', { min: 0, max: 1_000_000_000, fallback: 0 });
    const prefix =
      (typeof values.prefix === 'string' ? values.prefix : 'member').replace(/[^a-z0-9-]/gi, '').slice(0, 20) ||
      'member';
    const outFile = typeof values.out === 'string' ? values.out : undefined;
    const created: { id: string; email: string; token: string }[] = [];
    const sessionExpiresAt = new Date(Date.now() + 7 * 86_400_000);
    for (let i = 0; i < count; i++) {
      const id = `${prefix}-${randomBytes(8).toString('hex')}`;
      const email = `${id}@example.invalid`;
      const token = randomBytes(24).toString('base64url');
      await createMemberWithSession(db, {
        id,
        name: `${prefix}${i + 1}`,
        email,
        sessionToken: token,
        sessionExpiresAt,
      });
      if (coins > 0) {
        await grantCoins(db, {
          lifetimeDays: lifetimes,
          memberId: id,
          kind: 'paid',
          amount: coins,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `ops:members:${id}`,
          memo: 'ベンチマーク・テスト用',
        });
      }
      created.push({ id, email, token });
    }
    if (outFile) await writeFile(outFile, JSON.stringify(created, null, 2));
    out(JSON.stringify({ created: created.length, out: outFile ?? null, members: outFile ? undefined : created }));
  },
};
