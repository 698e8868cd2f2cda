// The route table of the specification (section 2), with its six layouts.
import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes';

const shopReturns = ['paidy', 'merpay', 'paypay', 'purchase', 'amazonpay'] as const;

export default [
  layout('layouts/top.tsx', [
    index('routes/home.tsx'),
    route('gacha/:genreId', 'routes/gacha/genre.tsx'),
    // A hot release's waiting room (decision 087; beyond the route table): members only, noindex.
    route('gacha/:genreId/:gachaId/waiting', 'routes/gacha/waiting.tsx'),
    // お知らせ (content documents of type notice; beyond the route table, decision 039).
    route('notices', 'routes/notices/index.tsx'),
    route('notices/:noticeId', 'routes/notices/notice.tsx'),
    route(':specialId', 'routes/special.tsx'),
  ]),
  layout('layouts/gacha-detail.tsx', [route('gacha/:genreId/:gachaId', 'routes/gacha/detail.tsx')]),
  layout('layouts/gacha-result.tsx', [route('gacha/:genreId/:gachaId/result/:resultId', 'routes/gacha/result.tsx')]),
  layout('layouts/external.tsx', [
    route('auth', 'routes/auth/index.tsx'),
    route('auth/action', 'routes/auth/action.tsx'),
    route('auth/passwd', 'routes/auth/passwd.tsx'),
    route('auth/sign_in', 'routes/auth/sign-in.tsx'),
    route('auth/sign_up', 'routes/auth/sign-up.tsx'),
    route('auth/popup', 'routes/auth/popup.tsx'),
    ...prefix('app', [
      route('checkout/:paymentMethod', 'routes/app/checkout.tsx'),
      route('return', 'routes/app/return.tsx'),
    ]),
  ]),
  route('auth/sign_out', 'routes/auth/sign-out.tsx'),
  // Today's login bonus for the sheet of the day's first page (JSON, read after the page loads: decision 060).
  route('myinbox/bonus/today', 'routes/myinbox/bonus-today.ts'),
  // The admin area (beyond the specification: operators; noindex, no member guards). Joining the
  // staff by a mailed invitation happens before the invitee is staff, so it sits outside the guard.
  layout('layouts/external.tsx', { id: 'admin-join-layout' }, [route('admin/join', 'routes/admin/join.tsx')]),
  layout('layouts/admin.tsx', [
    ...prefix('admin', [
      index('routes/admin/index.tsx'),
      route('audit', 'routes/admin/audit.tsx'),
      route('staff', 'routes/admin/staff.tsx'),
      route('stock', 'routes/admin/stock.tsx'),
      route('orders', 'routes/admin/orders/index.tsx'),
      route('orders/:orderId', 'routes/admin/orders/order.tsx'),
      route('signals', 'routes/admin/signals.tsx'),
      route('maintenance', 'routes/admin/maintenance.tsx'),
      route('closure', 'routes/admin/closure.tsx'),
      route('coin-packs', 'routes/admin/coin-packs.tsx'),
      route('promo-codes', 'routes/admin/promo-codes.tsx'),
      route('mail', 'routes/admin/mail.tsx'),
      route('invitations', 'routes/admin/invitations.tsx'),
      route('genres', 'routes/admin/genres.tsx'),
      route('packs', 'routes/admin/packs/index.tsx'),
      route('packs/:packId', 'routes/admin/packs/pack.tsx'),
      route('banners', 'routes/admin/banners.tsx'),
      route('farm', 'routes/admin/farm.tsx'),
      route('content', 'routes/admin/content/index.tsx'),
      route('content/:documentId', 'routes/admin/content/document.tsx'),
      route('reports/unused-paid', 'routes/admin/reports-unused-paid.tsx'),
      route('members', 'routes/admin/members/index.tsx'),
      route('approvals', 'routes/admin/approvals.tsx'),
      route('members/approvals', 'routes/admin/members/approvals-moved.tsx'),
      route('members/:memberId', 'routes/admin/members/member.tsx'),
      route('shipping', 'routes/admin/shipping/index.tsx'),
      route('shipping/batch', 'routes/admin/shipping/batch.tsx'),
      route('shipping/:requestId', 'routes/admin/shipping/request.tsx'),
      route('inquiries', 'routes/admin/inquiries/index.tsx'),
      route('inquiries/templates', 'routes/admin/inquiries/templates.tsx'),
      route('inquiries/:inquiryId', 'routes/admin/inquiries/inquiry.tsx'),
    ]),
  ]),
  // The desk's label CSV: a download, outside the admin layout (its loader checks the operator itself).
  route('admin/shipping/labels.csv', 'routes/admin/shipping/labels.ts'),
  // The content editor's image upload (JSON; content:write, audited, checked by its action).
  route('admin/content/images', 'routes/admin/content/images.ts'),
  // The admin lists as streamed CSV downloads (each export audited).
  route('admin/exports/:file', 'routes/admin/export.ts'),
  // A batch of 特典コード as CSV (audited).
  route('admin/promo-codes/batch.csv', 'routes/admin/promo-codes-csv.ts'),
  // An inquiry's attached image: a resource for operators with inquiries:read (checked by its loader).
  route('admin/inquiries/attachments/:attachmentId', 'routes/admin/inquiries/attachment.ts'),
  // Developer pages (404 unless PAYMENT_SANDBOX is on), before the catch-all.
  route('dev/outbox', 'routes/dev/outbox.tsx'),
  layout('layouts/ranking.tsx', [
    route('ranking', 'routes/ranking/index.tsx'),
    route('ranking/daily/goodluck', 'routes/ranking/board.tsx', { id: 'ranking-daily-goodluck' }),
    route('ranking/weekly/exp', 'routes/ranking/board.tsx', { id: 'ranking-weekly-exp' }),
    route('ranking/monthly/level', 'routes/ranking/board.tsx', { id: 'ranking-monthly-level' }),
  ]),
  layout('layouts/default.tsx', [
    route('preview', 'routes/preview.tsx'),
    route('gacha/video/debug', 'routes/gacha/video-debug.tsx'),
    ...prefix('mypage', [
      index('routes/mypage/index.tsx'),
      route('invitation', 'routes/mypage/invitation.tsx'),
      // A member's own pages: one answer to a visitor, the sign-in prompt (decision 002).
      layout('routes/mypage/members-layout.tsx', [
        route('addresses', 'routes/mypage/addresses.tsx'),
        route('draws', 'routes/mypage/draws.tsx'),
        route('settings/unlink', 'routes/mypage/settings-unlink.tsx'),
        route('tokutencode', 'routes/mypage/tokutencode.tsx'),
        route('backfromline', 'routes/mypage/backfromline.tsx', { id: 'mypage-backfromline' }),
        route('settings/phonenumber', 'routes/mypage/settings-phonenumber.tsx'),
        route('settings/security', 'routes/mypage/settings-security.tsx'),
        route('settings/delete', 'routes/mypage/settings-delete.tsx'),
        route('settings/profile', 'routes/mypage/settings-profile.tsx'),
        route('settings/email', 'routes/mypage/settings-email.tsx'),
        route('settings/password', 'routes/mypage/settings-password.tsx'),
        route('settings/limits', 'routes/mypage/settings-limits.tsx'),
        // A restricted member's statement and appeal (decision 084; beyond the specification).
        route('standing', 'routes/mypage/standing.tsx'),
        // The 払戻し of unused paid coins when the shop closes (decision 085).
        route('refund', 'routes/mypage/refund.tsx'),
        route('shipping', 'routes/mypage/shipping/index.tsx'),
        route('shipping/new', 'routes/mypage/shipping/new.tsx'),
        route('shipping/:requestId', 'routes/mypage/shipping/request.tsx'),
        route('backfromlinecampaign', 'routes/mypage/backfromline.tsx', { id: 'mypage-backfromlinecampaign' }),
      ]),
    ]),
    ...prefix('myinbox', [
      index('routes/myinbox/index.tsx'),
      route('alls', 'routes/myinbox/list.tsx', { id: 'myinbox-alls' }),
      route('idvs', 'routes/myinbox/list.tsx', { id: 'myinbox-idvs' }),
      route('bonus/logs', 'routes/myinbox/bonus-logs.tsx'),
      route('mail/:mailId', 'routes/myinbox/mail.tsx'),
    ]),
    route('r', 'routes/r/index.tsx'),
    route('r/ow', 'routes/r/ow.tsx'),
    route('shop', 'routes/shop/index.tsx'),
    route('shop/checkout/paidy/widget', 'routes/shop/paidy-widget.tsx'),
    route('shop/checkout/:paymentMethod', 'routes/shop/checkout.tsx'),
    route('shop/orders/:orderId/resume', 'routes/shop/order-resume.tsx'),
    route('shop/orders/:orderId/cancel', 'routes/shop/order-cancel.tsx'),
    ...shopReturns.map((provider) =>
      route(`shop/backfrom${provider}`, 'routes/shop/return.tsx', { id: `shop-backfrom${provider}` }),
    ),
    // The farm and its friends (decisions 044, 045) in the member's normal layout, with the tab bar and the
    // bell (issue 29 item 10, decision 060); the native app's web views of /app stay in the external layout.
    route('app/farm', 'routes/app/farm.tsx'),
    route('app/friends/add', 'routes/app/friends-add.tsx'),
    route('mylevel/top', 'routes/mylevel/top.tsx'),
    route('mylevel', 'routes/mylevel/index.tsx'),
    route('myrank', 'routes/myrank.tsx'),
    // The contact form (beyond the specification's table: the legal pages promise it).
    route('contact', 'routes/contact.tsx'),
    // A banned member's mailed statement link (decision 084; beyond the specification, noindex).
    route('standing/:token', 'routes/standing/token.tsx'),
    // The closure's public notice (公告, decision 085).
    route('closure', 'routes/closure.tsx'),
    route('*', 'routes/content-page.tsx'),
  ]),
] satisfies RouteConfig;
