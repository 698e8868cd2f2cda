// The door of every staff page: staff and admin accounts only, and only with the second factor (TOTP)
// on. The admin area (a later issue) must call requireStaff in every loader and action; the API's
// `auth: 'staff'` operations apply the same rule (server/api/v1/registry.ts). Decision 016.
import { redirect } from 'react-router';
import type { ShopRequest, SessionMember } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { notFound } from '~/lib/not-found';
import { isStaffRole } from '#modules/identity';
import { staffAccessOfMember } from '#modules/identity/server';

/** Where a staff member without TOTP is sent; the page says why (`required=staff`). */
export const STAFF_SECOND_FACTOR_PATH = '/mypage/settings/security?required=staff';

/**
 * Whether this request's header shows the link to the admin area: staff whose access is ok (TOTP on),
 * never members or visitors. Members cost nothing (their role says it); staff cost one indexed read.
 * Visitors' cached pages are rendered without cookies, so no shared copy can carry the link.
 * @example const adminLink = await showsAdminLink(shop) // true for staff with TOTP
 */
export async function showsAdminLink(shop: ShopRequest): Promise<boolean> {
  if (!shop.member || !isStaffRole(shop.member.role)) return false;
  return (await staffAccessOfMember(shop.services.db, shop.member.id)) === 'ok';
}

/**
 * The signed-in staff member, or a thrown answer: visitors go to sign-in, members who are not staff
 * meet the not-found page (a staff page does not announce itself), staff without TOTP go to the
 * security page to set it up.
 * @example export async function loader({ request, context }) { const staff = await requireStaff(context.get(shopRequestContext), request); … }
 */
export async function requireStaff(shop: ShopRequest, request: Request): Promise<SessionMember> {
  const url = new URL(request.url);
  if (!shop.member) throw redirect(signInPathFor(url.pathname + url.search));
  const access = await staffAccessOfMember(shop.services.db, shop.member.id);
  if (access === 'not-staff') throw notFound(url.pathname);
  if (access === 'needs-second-factor') throw redirect(STAFF_SECOND_FACTOR_PATH);
  return shop.member;
}
