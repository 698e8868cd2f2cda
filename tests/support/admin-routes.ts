// Which test keeps each /admin route from staff without its permission. The permission matrix
// (tests/http/admin-permissions.test.ts) runs ADMIN_MATRIX_PAGES and ADMIN_MATRIX_ACTIONS; the routes it
// cannot reach with a fixed URL are in ADMIN_ROUTES_TESTED_ELSEWHERE with the test that covers them.
// app/admin-routes.test.ts fails when a route of app/routes.ts under /admin is in neither.
import type { AdminPermission } from '#modules/admin';

/** Each page or download and the permission it needs (a list: any one of them opens it). */
export const ADMIN_MATRIX_PAGES: [string, AdminPermission | readonly AdminPermission[]][] = [
  ['/admin/members', 'members:read'],
  ['/admin/approvals', ['coins:grant', 'staff:write', 'mail:write']],
  ['/admin/farm', ['farm:write', 'reports:read']],
  ['/admin/shipping', 'shipping:read'],
  ['/admin/packs', 'packs:write'],
  ['/admin/packs/stellar-pokemon-001', 'packs:write'],
  ['/admin/stock', 'packs:write'],
  ['/admin/orders', 'orders:read'],
  ['/admin/signals', 'signals:read'],
  ['/admin/genres', 'packs:write'],
  ['/admin/coin-packs', 'packs:write'],
  ['/admin/promo-codes', 'promo:write'],
  ['/admin/mail', 'mail:write'],
  ['/admin/invitations', 'members:read'],
  ['/admin/banners', 'content:write'],
  ['/admin/content', 'content:write'],
  // A default document every shop adds on start (modules/content/defaults: `default-${type}-${uid}`).
  ['/admin/content/default-page-terms', 'content:write'],
  ['/admin/reports/unused-paid', 'orders:read'],
  ['/admin/inquiries', 'inquiries:read'],
  ['/admin/inquiries/templates', 'inquiries:read'],
  ['/admin/audit', 'audit:read'],
  ['/admin/staff', 'staff:write'],
  ['/admin/maintenance', 'shop:write'],
  ['/admin/exports/members.csv', 'members:read'],
  ['/admin/exports/draws.csv', 'members:read'],
  ['/admin/exports/ledger.csv', 'members:read'],
  ['/admin/exports/orders.csv', 'orders:read'],
  ['/admin/exports/shipping.csv', 'shipping:read'],
];

/** Each action with input it refuses (so nothing changes when it is let through) and its permission. */
export const ADMIN_MATRIX_ACTIONS: [string, Record<string, string>, AdminPermission][] = [
  ['/admin/packs', { id: 'Bad Id', genreId: '', title: '', description: '' }, 'packs:write'],
  ['/admin/packs/stellar-pokemon-001', { intent: 'nothing' }, 'packs:write'],
  ['/admin/genres', { intent: 'save', id: '', name: '' }, 'packs:write'],
  ['/admin/coin-packs', { intent: 'save', id: '', name: '' }, 'packs:write'],
  ['/admin/promo-codes', { intent: 'create', code: '', label: '' }, 'promo:write'],
  ['/admin/mail', { intent: 'send', audience: 'broadcast', subject: '' }, 'mail:write'],
  ['/admin/stock', { intent: 'receive', cardName: '', count: '0' }, 'packs:write'],
  ['/admin/staff', { intent: 'invite', email: 'not-an-address', role: 'staff' }, 'staff:write'],
  ['/admin/maintenance', { intent: 'nothing' }, 'shop:write'],
  ['/admin/orders/00000000-0000-4000-8000-000000000000', { intent: 'refund', reason: 'x' }, 'orders:refund'],
  ['/admin/inquiries/templates', { intent: 'nothing' }, 'inquiries:write'],
  ['/admin/content', { type: 'nothing', uid: '', title: '' }, 'content:write'],
  // No such document: 404 once the permission is checked.
  ['/admin/content/no-such-document', { intent: 'nothing' }, 'content:write'],
  // The editor's image upload without an image: 400 (JSON) once the permission is checked.
  ['/admin/content/images', {}, 'content:write'],
  // The page itself also opens with reports:read (the economy view), so only its actions are in the matrix.
  ['/admin/farm', { intent: 'nothing' }, 'farm:write'],
];

/**
 * The /admin routes (as written in app/routes.ts) the matrix does not run, each with the test file that
 * checks who may open it, because that needs a record made for the test or is not a permission at all.
 */
export const ADMIN_ROUTES_TESTED_ELSEWHERE: { route: string; test: string; why: string }[] = [
  {
    route: '/admin/closure',
    test: 'tests/http/closure.test.ts',
    why: 'shop:write or orders:refund opens it, and announcing needs the admin role (decision 085); the closure stops the shop, so its test runs on a shop of its own',
  },
  {
    route: '/admin',
    test: 'tests/http/admin.test.ts',
    why: 'any staff member opens the home (members 404, no second factor: sent to set it up); no permission',
  },
  {
    route: '/admin/join',
    test: 'tests/http/admin.test.ts',
    why: 'the invitee is not staff yet: the mailed token and the invited address decide, not a permission',
  },
  {
    route: '/admin/members/approvals',
    test: 'tests/http/admin-staff-authority.test.ts',
    why: 'the approvals page’s old address: a redirect to /admin/approvals (which the matrix runs), no page of its own',
  },
  {
    route: '/admin/members/:memberId',
    test: 'tests/http/admin-members.test.ts',
    why: 'a real member: 404 for members, 403 without members:read on the page and each action',
  },
  {
    route: '/admin/shipping/batch',
    test: 'tests/http/admin-shipping.test.ts',
    why: 'opens addresses of real requests: 404 for members, 403 without shipping:read',
  },
  {
    route: '/admin/shipping/:requestId',
    test: 'tests/http/admin-shipping.test.ts',
    why: 'a real request: 404 for members, 403 without shipping:read, 403 on each change with read only',
  },
  {
    route: '/admin/shipping/labels.csv',
    test: 'tests/http/admin-shipping.test.ts',
    why: 'addresses of real requests: 404 for members, 403 without shipping:read',
  },
  {
    route: '/admin/inquiries/:inquiryId',
    test: 'tests/http/contact.test.ts',
    why: 'a real inquiry: 404 for members, 403 without inquiries:read, 403 on each change with read only',
  },
  {
    route: '/admin/inquiries/attachments/:attachmentId',
    test: 'tests/http/contact.test.ts',
    why: 'a real attachment: 404 for members, 403 without inquiries:read',
  },
  {
    route: '/admin/promo-codes/batch.csv',
    test: 'tests/http/promo-codes.test.ts',
    why: 'a real batch of codes: 403 without promo:write',
  },
];
