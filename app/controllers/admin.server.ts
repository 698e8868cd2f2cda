// The door of every admin page: who the operator is (read fresh from the database on each request),
// and the permission the page or action needs. Visitors go to sign-in; members who are not staff meet
// the not-found page (the admin area does not announce itself); staff without the second factor go
// to the security page; staff without the permission get 403 (rendered by the admin layout).
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { notFound } from '~/lib/not-found';
import { STAFF_SECOND_FACTOR_PATH } from '~/controllers/staff.server';
import { CLIENT_IP_HEADER } from '#modules/identity';
import { adminAccessOf, PERMISSION_LABELS, type AdminPermission, type Operator } from '#modules/admin';

/** What the admin layout's error boundary shows for a refused permission. */
export interface AdminForbiddenPayload {
  forbidden: true;
  /** The permission the page needs, or the ones of which it needs any ('a / b'). */
  permission: string;
  /** Its name in words (several joined as 「A」または「B」's inside). */
  label: string;
}

/** The request's facts an audit entry keeps: its id and the client's address. */
export const requestFacts = (shop: ShopRequest, request: Request) => ({
  requestId: shop.requestId,
  address: request.headers.get(CLIENT_IP_HEADER) || null,
});

/**
 * The operator of this request, or a thrown answer. With `permission` (or a list, of which any will do), an
 * operator without it gets 403.
 * Call it in every admin loader and action (loaders run in parallel: the layout's check alone is not enough).
 * @example const operator = await requireOperator(shop, request, 'audit:read')
 */
export async function requireOperator(
  shop: ShopRequest,
  request: Request,
  permission?: AdminPermission | readonly AdminPermission[],
): Promise<Operator> {
  const url = new URL(request.url);
  if (!shop.member) throw redirect(signInPathFor(url.pathname + url.search));
  const access = await adminAccessOf(shop.services.db, shop.member.id, requestFacts(shop, request));
  if (!access.ok) {
    if (access.reason === 'needs-second-factor') throw redirect(STAFF_SECOND_FACTOR_PATH);
    throw notFound(url.pathname);
  }
  const wanted = permission === undefined ? [] : [permission].flat();
  if (wanted.length > 0 && !wanted.some((p) => access.operator.permissions.has(p)))
    throw data<AdminForbiddenPayload>(
      {
        forbidden: true,
        permission: wanted.join(' / '),
        label: wanted.map((p) => PERMISSION_LABELS[p]).join('」または「'),
      },
      { status: 403 },
    );
  return access.operator;
}

/** What the admin layout shows of the operator. */
export const operatorSummary = (operator: Operator) => ({
  label: operator.label,
  role: operator.role,
  permissions: [...operator.permissions],
});
