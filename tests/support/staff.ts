// Staff for the HTTP tests: a member made staff through the operators' own command line
// (`staff:grant`, audited like any grant), with the second factor the admin area asks for switched on.
// Once the shop has two admins, making an admin waits for an admin's approval (decision 050): the
// helper then approves the request as one of the existing admins, through the same approval function.
import { and, eq, ne } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '#db/client';
import { users } from '#db/schema';
import { adminAccessOf, approveStaffRoleRequest } from '#modules/admin';
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
  const pending = said.map((line) => JSON.parse(line) as { pending?: string }).find((line) => line.pending)?.pending;
  if (pending) await approveAsAnotherAdmin(db, email, pending);
  await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.email, email));
}

/** Approves an admin change as one of the shop's admins (not the member it is about). */
async function approveAsAnotherAdmin(db: Database, email: string, requestId: string): Promise<void> {
  const approvers = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.twoFactorEnabled, true), ne(users.email, email)))
    .limit(5);
  for (const { id } of approvers) {
    const access = await adminAccessOf(db, id, { requestId: null, address: null });
    if (!access.ok) continue;
    const approved = await approveStaffRoleRequest(db, access.operator, requestId, {
      name: 'テストショップ',
      origin: 'http://127.0.0.1',
    });
    expect(approved.ok, JSON.stringify(approved)).toBe(true);
    return;
  }
  throw new Error(`no admin could approve making ${email} an admin`);
}
