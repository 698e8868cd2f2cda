// Staff for the HTTP tests: a member made staff through the operators' own command line
// (`staff:grant`, audited like any grant), with the second factor the admin area asks for switched on.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '#db/client';
import { users } from '#db/schema';
import { TEST_RULES } from '#tests/fixtures';
import { runAdminCommand } from '../../scripts/shop-admin';

/**
 * Makes the member with this address staff holding `permissions` (without them: an admin), second factor on.
 * @example await grantStaff(db, 'desk@example.jp', ['shipping:read'])
 */
export async function grantStaff(db: Database, email: string, permissions?: readonly string[]): Promise<void> {
  const said: string[] = [];
  const role = permissions ? ['--role', 'staff', '--permissions', permissions.join(',')] : [];
  const code = await runAdminCommand(db, ['staff:grant', '--member', email, ...role], (line) => said.push(line), {
    lifetimes: TEST_RULES.coinLifetimes,
  });
  expect(code, said.join('\n')).toBe(0);
  await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.email, email));
}
