// Who may give or take staff access (docs/decisions/050): nobody grants what they do not hold, nobody
// changes someone who holds more than they do, and only an admin asks for an admin change (which then
// waits for a second admin). Pure rules: staff.ts enforces them, the staff page greys out by them.
import { ADMIN_PERMISSIONS, type AdminPermission } from './permissions';
import type { Operator } from './audit';

/** Someone's access as the rules compare it: a role and the permissions rows of a staff member. */
export interface HeldAccess {
  role: string;
  permissions: readonly string[];
}

/** Why a change is refused, as a refusal code with its details; null when it is allowed. */
export type AuthorityRefusal =
  | { code: 'STAFF_ADMIN_ROLE_NOT_HELD'; details: Record<string, unknown> }
  | { code: 'STAFF_GRANT_NOT_HELD'; details: { permissions: string[] } }
  | { code: 'STAFF_TARGET_HOLDS_MORE'; details: { permissions: string[] } };

/** Whether the operator may ask for admin changes: an admin, or the command line (decision 050). */
export const mayAskForAdminChanges = (operator: Pick<Operator, 'role'>): boolean =>
  operator.role === 'admin' || operator.role === 'cli';

/**
 * The permissions an operator may give: those they hold (an admin and the command line hold all).
 * @example grantablePermissions(staffWithShippingAndStaffWrite) // ['shipping:read', 'staff:write']
 */
export function grantablePermissions(operator: Pick<Operator, 'permissions'>): AdminPermission[] {
  return ADMIN_PERMISSIONS.filter((p) => operator.permissions.has(p));
}

/** The permissions of `wanted` that the operator does not hold, in the list's order. */
const notHeld = (operator: Pick<Operator, 'permissions'>, wanted: readonly string[]): string[] =>
  [...new Set(wanted)].filter((p) => !operator.permissions.has(p as AdminPermission));

/**
 * Whether the operator may change (or remove) the access someone holds now: never an admin's unless
 * they may ask for admin changes; never a staff member's who holds a permission they do not.
 * @example mayTouch(staffOperator, { role: 'admin', permissions: [] }) // { code: 'STAFF_ADMIN_ROLE_NOT_HELD', … }
 */
export function mayTouch(operator: Pick<Operator, 'role' | 'permissions'>, held: HeldAccess): AuthorityRefusal | null {
  if (held.role === 'admin' && !mayAskForAdminChanges(operator))
    return { code: 'STAFF_ADMIN_ROLE_NOT_HELD', details: { role: 'admin' } };
  const more = notHeld(operator, held.role === 'staff' ? held.permissions : []);
  return more.length ? { code: 'STAFF_TARGET_HOLDS_MORE', details: { permissions: more } } : null;
}

/**
 * Whether the operator may give this access: the admin role only if they may ask for admin changes;
 * permissions only those they hold.
 * @example mayGive(staffOperator, { role: 'staff', permissions: ['coins:grant'] }) // { code: 'STAFF_GRANT_NOT_HELD', … }
 */
export function mayGive(operator: Pick<Operator, 'role' | 'permissions'>, given: HeldAccess): AuthorityRefusal | null {
  if (given.role === 'admin' && !mayAskForAdminChanges(operator))
    return { code: 'STAFF_ADMIN_ROLE_NOT_HELD', details: { role: 'admin' } };
  const missing = notHeld(operator, given.role === 'staff' ? given.permissions : []);
  return missing.length ? { code: 'STAFF_GRANT_NOT_HELD', details: { permissions: missing } } : null;
}

/**
 * Whether a change from one access to another makes, unmakes or keeps an admin: such changes wait
 * for a second admin (decision 050). Admin to admin changes nothing.
 * @example changesAnAdmin('staff', 'admin') // true
 */
export const changesAnAdmin = (fromRole: string | null, toRole: string): boolean =>
  (fromRole === 'admin') !== (toRole === 'admin');
