// The member console's pages (/admin/members): the search, one member's page with every section
// (profile, wallet by lot, ledger, draws, prizes, shipping, purchases, sessions, notes) each paged or
// limited, the actions on a member (coin adjustment, ban, unban, sign-out everywhere, hold, clear
// hold, age correction, note), and the approvals of large adjustments. Every change goes through the
// admin module's operator functions, which check the permission and write the audit entry in the
// same transaction; the command line calls the same ones (docs/decisions/026).
import { randomUUID } from 'node:crypto';
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { memberTagsFor } from '~/controllers/member-tags.server';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { refusedBy } from '~/controllers/admin-answers.server';
import { notFound } from '~/lib/not-found';
import { signalRows } from '~/controllers/admin-signals.server';
import { sponsorshipAction } from '~/controllers/admin-member-sponsorship.server';
import {
  RESTRICTION_INTENTS,
  restrictionAction,
  restrictionRowsOf,
  type RestrictionIntent,
} from '~/controllers/admin-member-restriction.server';
import {
  SPONSORSHIP_KIND_LABELS,
  currentSponsorship,
  formatPhoneNumber,
  listMemberSessions,
  memberCode,
  memberListingsOf,
  memberProfileOf,
  memberQueryOf,
  searchMembers,
} from '#modules/identity';
import { phoneNumberPolicy } from '#modules/identity/server';
import { getBalance, listCoinLots, listLedgerEntries } from '#modules/wallet';
import { countPrizesByStatus, listMemberDraws, listPrizes, prizeStatuses, type PrizeStatus } from '#modules/draw';
import { SHIPPING_STATUS_LABELS, listShippingRequests } from '#modules/shipping';
import {
  ORDER_STATUS_LABELS,
  listOrders,
  purchaseHoldOf,
  purchaseHoldsOf,
  purchaseProfileOf,
  type PurchaseHoldKind,
} from '#modules/payments';
import {
  addMemberNoteAsOperator,
  adjustCoinsAsOperator,
  approveCoinAdjustment,
  coinAdjustmentSchema,
  declareAgeAsOperator,
  holdReasonOf,
  listAuditEntries,
  listCoinAdjustmentsOf,
  listMemberNotes,
  listPendingCoinAdjustments,
  memberNoteSchema,
  rejectCoinAdjustment,
  revokeMemberSessionsAsOperator,
  type AdminPermission,
} from '#modules/admin';

/** What a console action answers (decision 067): a line for the operator, or the refusal, and which form it is for. */
export type MemberActionData = AdminActionResult;

/** Rows per page of the search and of each section of a member's page. */
export const MEMBER_SEARCH_PAGE = 50;
const SECTION_PAGE = 20;
const LOTS_SHOWN = 50;
const SEARCH_MAX_PAGES = 100;

export const HOLD_LABELS: Record<PurchaseHoldKind, string> = {
  chargeback: 'チャージバック',
  operator: '運営による停止',
  other: '確認待ち',
};

const ROLE_LABELS: Record<string, string> = { user: '会員', staff: 'スタッフ', admin: '管理者' };
const KIND_LABELS = { paid: '有償', free: '無償' } as const;

const refused = refusedBy;

const badInput = (message: string, form: string) => actionRefused(message, { form });

const n = (value: number) => value.toLocaleString('ja-JP');

// ── The search ───────────────────────────────────────────────────────────────────────────────────

export async function memberSearchLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'members:read');
  const url = new URL(request.url);
  const q = (url.searchParams.get('q') ?? '').slice(0, 254);
  const pageNumber = Math.min(
    Math.max(Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1, 1),
    SEARCH_MAX_PAGES,
  );
  const db = shop.services.db;
  const query = memberQueryOf(q, phoneNumberPolicy(shop.services.config));
  const found = await searchMembers(db, query, {
    limit: MEMBER_SEARCH_PAGE,
    offset: (pageNumber - 1) * MEMBER_SEARCH_PAGE,
  });
  const holds = await purchaseHoldsOf(
    db,
    found.items.map((m) => m.id),
  );
  return {
    q,
    by: query.by,
    page: pageNumber,
    hasMore: found.hasMore && pageNumber < SEARCH_MAX_PAGES,
    items: found.items.map((m) => ({
      ...m,
      code: memberCode(m.id),
      roleLabel: ROLE_LABELS[m.role] ?? m.role,
      hold: holds.get(m.id) ? HOLD_LABELS[holds.get(m.id)!] : null,
    })),
  };
}

// ── One member ──────────────────────────────────────────────────────────────────────────────────

/** A keyset cursor `<ISO time>_<uuid>` from the query string, or undefined. */
function cursorOf(value: string | null) {
  if (!value) return undefined;
  const at = value.lastIndexOf('_');
  if (at < 1) return undefined;
  const createdAt = value.slice(0, at);
  if (Number.isNaN(Date.parse(createdAt))) return undefined;
  return { createdAt, id: value.slice(at + 1) };
}
const cursorText = (cursor: { createdAt: string; id: string } | null) =>
  cursor ? `${cursor.createdAt}_${cursor.id}` : null;
const positiveInt = (value: string | null) => {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
};

/** Age from a YYYY-MM-DD birthday, today in Japan. */
function ageOf(birthday: string | null, now = new Date()): number | null {
  if (!birthday) return null;
  const [y, m, d] = birthday.split('-').map(Number);
  const today = new Date(now.getTime() + 9 * 3_600_000);
  let age = today.getUTCFullYear() - (y ?? 0);
  if (today.getUTCMonth() + 1 < (m ?? 0) || (today.getUTCMonth() + 1 === m && today.getUTCDate() < (d ?? 0))) age -= 1;
  return age;
}

export async function memberPageLoader(shop: ShopRequest, request: Request, memberId: string) {
  const operator = await requireOperator(shop, request, 'members:read');
  const url = new URL(request.url);
  const db = shop.services.db;
  const profile = await memberProfileOf(db, memberId);
  if (!profile) throw notFound(url.pathname);
  const params = url.searchParams;
  const prizeStatus = (prizeStatuses as readonly string[]).includes(params.get('prizes') ?? '')
    ? (params.get('prizes') as PrizeStatus)
    : 'pending';
  const [
    balance,
    lots,
    ledger,
    draws,
    prizeCounts,
    prizes,
    shipping,
    orders,
    sessions,
    notes,
    adjustments,
    hold,
    purchaseProfile,
    holdEntry,
    sponsorship,
    restrictions,
  ] = await Promise.all([
    getBalance(db, memberId),
    listCoinLots(db, memberId, LOTS_SHOWN),
    listLedgerEntries(db, memberId, { limit: SECTION_PAGE, before: positiveInt(params.get('ledger')) }),
    listMemberDraws(db, memberId, { limit: SECTION_PAGE, before: cursorOf(params.get('draws')) }),
    countPrizesByStatus(db, memberId),
    listPrizes(db, memberId, {
      status: [prizeStatus],
      limit: SECTION_PAGE,
      before: cursorOf(params.get('prizesAfter')),
    }),
    listShippingRequests(db, memberId, { limit: 10 }),
    listOrders(db, memberId, { limit: SECTION_PAGE, before: params.get('orders') }),
    listMemberSessions(db, memberId, SECTION_PAGE),
    listMemberNotes(db, memberId, { limit: SECTION_PAGE, before: positiveInt(params.get('notes')) }),
    listCoinAdjustmentsOf(db, memberId, 10),
    purchaseHoldOf(db, memberId),
    purchaseProfileOf(db, memberId),
    listAuditEntries(db, { targetType: 'member', targetId: memberId, action: 'member.hold' }, 1),
    currentSponsorship(db, memberId),
    restrictionRowsOf(shop, operator, memberId),
  ]);
  const has = (permission: AdminPermission) => operator.permissions.has(permission);
  const config = shop.services.config;
  // The member's fraud signals (decided at /admin/signals), for whoever may read them.
  const signals = has('signals:read') ? (await signalRows(shop, operator, { memberId }, 10)).items : null;
  return {
    signals,
    restrictions,
    sponsorship: sponsorship && {
      kind: sponsorship.kind,
      label: SPONSORSHIP_KIND_LABELS[sponsorship.kind],
      since: sponsorship.startedAt.toISOString(),
    },
    profile: {
      ...profile,
      code: memberCode(profile.id),
      roleLabel: ROLE_LABELS[profile.role] ?? profile.role,
      phone: profile.phoneNumber ? formatPhoneNumber(profile.phoneNumber) : null,
      age: ageOf(profile.birthday),
      declaredMinor: purchaseProfile?.declaredMinor ?? null,
    },
    hold: hold
      ? {
          kind: hold.reason,
          label: HOLD_LABELS[hold.reason],
          since: hold.since?.toISOString() ?? null,
          // The entry names the staff note that keeps the reason (the log keeps only its digest).
          reason:
            hold.reason === 'operator' && holdEntry.entries[0]
              ? await holdReasonOf(db, memberId, holdEntry.entries[0].after)
              : null,
        }
      : null,
    wallet: {
      paid: balance.paid,
      free: balance.free,
      expiringSoon: balance.expiringSoon,
      lots: lots.lots.map((l) => ({ ...l, kindLabel: KIND_LABELS[l.kind] })),
      lotsTotal: lots.total,
    },
    ledger: {
      items: ledger.items.map((e) => ({ ...e, kindLabel: KIND_LABELS[e.kind] })),
      next: ledger.nextBefore,
    },
    draws: { items: draws.items, next: cursorText(draws.next) },
    prizes: {
      status: prizeStatus,
      counts: prizeCounts,
      items: prizes.items.map((p) => ({
        prizeId: p.prizeId,
        cardName: p.cardName,
        tierLabel: p.tierLabel,
        gachaTitle: p.gachaTitle,
        conversionValue: p.conversionValue,
        createdAt: p.createdAt,
        decideBy: p.decideBy,
        keepUntil: p.keepUntil,
      })),
      next: cursorText(prizes.next),
    },
    shipping: shipping.items.map((r) => ({
      id: r.id,
      status: r.status,
      statusLabel: SHIPPING_STATUS_LABELS[r.status],
      requestedAt: r.requestedAt,
      itemCount: r.itemCount,
    })),
    orders: {
      items: orders.items.map((o) => ({ ...o, statusLabel: ORDER_STATUS_LABELS[o.status] ?? o.status })),
      next: orders.nextCursor,
    },
    sessions,
    notes: { items: notes.items, next: notes.nextBefore },
    adjustments: adjustments.map((a) => ({ ...a, kindLabel: KIND_LABELS[a.kind] })),
    can: {
      write: has('members:write'),
      grant: has('coins:grant'),
      shipping: has('shipping:read'),
      approve: operator.role === 'admin',
    },
    self: operator.memberId === memberId,
    threshold: config.COIN_ADJUSTMENT_APPROVAL_THRESHOLD,
    /** The adjustment form's key: a double submit of this page's form adjusts once. */
    adjustmentKey: randomUUID().replaceAll('-', ''),
  };
}

/** The actions of a member's page and the permission each needs (the module checks it again). */
const MEMBER_INTENTS: Record<string, AdminPermission> = {
  adjust: 'coins:grant',
  ban: 'members:write',
  unban: 'members:write',
  revokeSessions: 'members:write',
  hold: 'members:write',
  clearHold: 'members:write',
  age: 'members:write',
  note: 'members:write',
  sponsorStart: 'members:write',
  sponsorEnd: 'members:write',
  appealDecide: 'members:write',
  restrictionLink: 'members:write',
};

export async function memberPageAction(shop: ShopRequest, request: Request, memberId: string) {
  const operator = await requireOperator(shop, request, 'members:read');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const intent = text('intent') ?? '';
  const permission = MEMBER_INTENTS[intent];
  if (!permission) return badInput('操作を選び直してください。', 'page');
  if (!operator.permissions.has(permission)) await requireOperator(shop, request, permission);
  const db = shop.services.db;
  const config = shop.services.config;
  if (!(await memberProfileOf(db, memberId))) throw notFound(new URL(request.url).pathname);

  if (intent === 'sponsorStart' || intent === 'sponsorEnd')
    return sponsorshipAction(db, operator, memberId, intent, text('kind'));
  if ((RESTRICTION_INTENTS as readonly string[]).includes(intent))
    return restrictionAction(shop, operator, memberId, intent as RestrictionIntent, text);
  switch (intent) {
    case 'adjust': {
      const parsed = coinAdjustmentSchema.safeParse({
        kind: text('kind'),
        amount: text('amount'),
        reason: text('reason'),
        key: text('key'),
      });
      if (!parsed.success) return badInput(parsed.error.issues[0]?.message ?? '入力を確認してください。', intent);
      const done = await adjustCoinsAsOperator(db, operator, memberId, parsed.data, {
        approvalThreshold: config.COIN_ADJUSTMENT_APPROVAL_THRESHOLD,
        lifetimes: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
      });
      if (!done.ok) return refused(done, intent);
      const a = done.value.adjustment;
      const what = `${KIND_LABELS[a.kind]}コインを${a.amount > 0 ? '+' : '−'}${n(Math.abs(a.amount))}枚`;
      return actionOk(
        a.status === 'pending'
          ? `${what}の調整を申請しました。${n(config.COIN_ADJUSTMENT_APPROVAL_THRESHOLD)}枚を超えるため、別の管理者の承認後に反映されます。`
          : `${what}調整しました。会員のコイン履歴に「調整」として理由とともに表示されます。`,
        { form: intent },
      );
    }
    case 'revokeSessions': {
      const done = await revokeMemberSessionsAsOperator(db, operator, memberId);
      return done.ok
        ? actionOk(`すべての端末からログアウトさせました（${n(done.value.sessionsRevoked)}件）。`, { form: intent })
        : refused(done, intent);
    }
    case 'age': {
      const answer = text('minor');
      if (answer !== 'true' && answer !== 'false') return badInput('18歳未満か18歳以上かを選んでください。', intent);
      const done = await declareAgeAsOperator(db, operator, memberId, answer === 'true');
      return done.ok
        ? actionOk(`年齢申告を「${done.value.declaredMinor ? '18歳未満' : '18歳以上'}」に訂正しました。`, {
            form: intent,
          })
        : refused(done, intent);
    }
    case 'note': {
      const parsed = memberNoteSchema.safeParse({ text: text('text') });
      if (!parsed.success) return badInput(parsed.error.issues[0]?.message ?? '入力を確認してください。', intent);
      const done = await addMemberNoteAsOperator(db, operator, memberId, parsed.data.text);
      return done.ok ? actionOk('メモを追加しました。', { form: intent }) : refused(done, intent);
    }
  }
  return badInput('操作を選び直してください。', 'page');
}

// ── Approvals ───────────────────────────────────────────────────────────────────────────────────

const PENDING_SHOWN = 100;

/** One waiting adjustment as the section shows it. */
export interface CoinAdjustmentRow {
  id: string;
  memberId: string;
  memberName: string | null;
  memberEmail: string | null;
  kindLabel: string;
  amount: number;
  reason: string;
  requestedLabel: string;
  requestedAt: string | Date;
  /** Asked for by the operator: they cannot decide it. */
  mine: boolean;
}

/** The section's data: null for an operator without coins:grant (the section is not shown). */
export interface CoinAdjustmentApprovalsView {
  items: CoinAdjustmentRow[];
  canDecide: boolean;
  threshold: number;
  members: Awaited<ReturnType<typeof memberTagsFor>>;
}

/**
 * Who may open the approvals page: each of its sections (coin adjustments, admin changes, mails with
 * presents) is shown to the operators holding its permission, so anyone who can ask for one sees it wait.
 */
export const APPROVAL_READERS = ['coins:grant', 'staff:write', 'mail:write'] as const satisfies AdminPermission[];

/** The approvals page's coin adjustments, or null for an operator without coins:grant (decision 026). */
export async function approvalsLoader(
  shop: ShopRequest,
  request: Request,
): Promise<CoinAdjustmentApprovalsView | null> {
  const operator = await requireOperator(shop, request, APPROVAL_READERS);
  if (!operator.permissions.has('coins:grant')) return null;
  const db = shop.services.db;
  const pending = await listPendingCoinAdjustments(db, PENDING_SHOWN);
  const ids = pending.map((a) => a.memberId);
  const [members, tags] = await Promise.all([memberListingsOf(db, ids), memberTagsFor(db, operator, ids)]);
  return {
    members: tags,
    canDecide: operator.role === 'admin',
    threshold: shop.services.config.COIN_ADJUSTMENT_APPROVAL_THRESHOLD,
    items: pending.map((a) => ({
      ...a,
      kindLabel: KIND_LABELS[a.kind],
      memberName: members.get(a.memberId)?.name ?? null,
      memberEmail: members.get(a.memberId)?.email ?? null,
      mine: a.requestedBy !== null && a.requestedBy === operator.memberId,
    })),
  };
}

export async function approvalsAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'coins:grant');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const intent = form.get('intent');
  const id = form.get('id');
  if (typeof id !== 'string' || !id) return badInput('承認・却下する申請を一覧から選んでください。', 'page');
  const config = shop.services.config;
  if (intent === 'approve') {
    const done = await approveCoinAdjustment(shop.services.db, operator, id, {
      lifetimes: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
    });
    return done.ok
      ? actionOk(
          `承認しました。${KIND_LABELS[done.value.kind]}コイン${done.value.amount > 0 ? '+' : '−'}${n(Math.abs(done.value.amount))}枚を反映しました。`,
          { form: id },
        )
      : refused(done, id);
  }
  if (intent === 'reject') {
    const note = form.get('note');
    if (typeof note === 'string' && note.trim().length > 200)
      return badInput('却下の理由は200文字以内で入力してください。', id);
    const done = await rejectCoinAdjustment(shop.services.db, operator, id, typeof note === 'string' ? note : '');
    return done.ok ? actionOk('却下しました。コインは動いていません。', { form: id }) : refused(done, id);
  }
  return badInput('操作を選び直してください。', 'page');
}
