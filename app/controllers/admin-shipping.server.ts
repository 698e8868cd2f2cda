// The fulfilment desk's pages (/admin/shipping): the queue with its batch actions and the shipped-CSV
// import, one request with its address and moves, the printable pick list and packing slips, and the
// label CSV. Every read of an address and every change goes through the shipping module's desk
// functions, which check the permission and write the audit entry in the same transaction.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { memberIdFromFilter, memberTagsFor } from '~/controllers/member-tags.server';
import { INQUIRIES_SEEN_FIELD } from '~/lib/admin-shipping';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { notFound } from '~/lib/not-found';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { shippingRulesOf } from '#server/context';
import { substituteCandidates } from '#modules/gacha';
import { findMemberByIdOrEmail } from '#modules/identity';
import { isUuid, type Refusal } from '#modules/kernel';
import { INQUIRY_STATUS_LABELS, openInquiriesAbout } from '#modules/support';
import {
  CARRIERS,
  CARRIER_CODES,
  LABEL_CSV_COLUMNS,
  SHIPPED_CSV_COLUMNS,
  SHIPPING_STATUS_LABELS,
  SHIPPING_TRANSITIONS,
  cancelShippingRequestByShop,
  convertReturnedRequest,
  exportLabelCsv,
  getShippingRequestForDesk,
  internalNoteSchema,
  jstDateLabel,
  listShippingQueue,
  missingCardReportSchema,
  reportMissingCard,
  markShippingDelivered,
  markShippingReturned,
  prepareShippingRequests,
  reshipReturnedRequest,
  setShippingInternalNote,
  shipShippingRequest,
  shipShippingRequestsFromCsv,
  shippingBatchForDesk,
  shippingQueueFilterSchema,
  shippingStatuses,
  type ShippingStatus,
} from '#modules/shipping';

/**
 * What a desk action answers (the admin result, decision 067): a line for the operator, for the form
 * that asked ('batch', 'csv', 'ship', 'note', a move's name…), and the CSV import's problems by line.
 */
interface DeskExtra {
  problems: { line: number | null; message: string }[];
}
export type DeskActionData = AdminActionResult<DeskExtra>;

/** The most requests one batch (pick list, labels, preparing) takes: a page of the queue. */
export const DESK_BATCH_MAX = 200;

/** Today's date in Japan (YYYY-MM-DD): the label CSV's default ship date. */
const jstToday = (now = new Date()) => new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);

const statusOptions = () => shippingStatuses.map((s) => ({ id: s, label: SHIPPING_STATUS_LABELS[s] }));
const carrierOptions = () => CARRIER_CODES.map((c) => ({ id: c, name: CARRIERS[c].name }));

const refused = (refusal: Refusal<string>, form: string) => {
  const described = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused(described.message, { form, status: described.status });
};

// ── The queue ────────────────────────────────────────────────────────────────────────────────────

export async function shippingQueueLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'shipping:read');
  const url = new URL(request.url);
  const query = Object.fromEntries(url.searchParams);
  const parsed = shippingQueueFilterSchema.safeParse(query);
  const filterError = parsed.success ? null : (parsed.error.issues[0]?.message ?? '絞り込みの条件を確認してください。');
  const filter = parsed.success ? parsed.data : shippingQueueFilterSchema.parse({});
  // The desk may name a member by the address a member writes from or by the member number the member
  // reads out (an unknown one lists nothing).
  const byEmail = filter.memberId?.includes('@')
    ? await findMemberByIdOrEmail(shop.services.db, filter.memberId)
    : null;
  const listed = await listShippingQueue(shop.services.db, operator, {
    ...filter,
    memberId: byEmail
      ? byEmail.id
      : filter.memberId
        ? await memberIdFromFilter(shop.services.db, filter.memberId)
        : filter.memberId,
  });
  if (!listed.ok) throw data(describeRefusal(listed as Refusal<RefusalCode>).message, { status: 403 });
  const config = shop.services.config;
  return {
    filter: {
      status: filter.status ?? '',
      memberId: filter.memberId ?? '',
      from: filter.from ?? '',
      to: filter.to ?? '',
      page: filter.page,
    },
    filterError,
    queue: {
      ...listed.queue,
      items: listed.queue.items.map((item) => ({
        ...item,
        statusLabel: SHIPPING_STATUS_LABELS[item.status],
        promisedLabel: jstDateLabel(item.promisedDate),
        carrierName: item.carrier ? CARRIERS[item.carrier].name : null,
      })),
    },
    members: await memberTagsFor(
      shop.services.db,
      operator,
      listed.queue.items.map((item) => item.memberId),
    ),
    statuses: statusOptions(),
    carriers: carrierOptions(),
    canWrite: operator.permissions.has('shipping:write'),
    csv: {
      maxBytes: config.SHIPPING_CSV_MAX_BYTES,
      maxRows: config.SHIPPING_CSV_MAX_ROWS,
      columns: [...SHIPPED_CSV_COLUMNS],
      labelColumns: [...LABEL_CSV_COLUMNS],
    },
    today: jstToday(),
  };
}

/** The ids ticked in a batch form: request ids only, each once, at most a batch. */
const idsOf = (form: FormData) =>
  [...new Set(form.getAll('id').filter((v): v is string => typeof v === 'string' && isUuid(v)))].slice(
    0,
    DESK_BATCH_MAX,
  );

export async function shippingQueueAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'shipping:write');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const db = shop.services.db;
  const config = shop.services.config;
  const rules = shippingRulesOf(config);
  const intent = form.get('intent');

  if (intent === 'prepare') {
    const ids = idsOf(form);
    if (ids.length === 0) return actionRefused('発送準備中にする依頼を一覧で選んでください。', { form: 'batch' });
    const done = await prepareShippingRequests(db, operator, rules, ids);
    if (!done.ok) return refused(done, 'batch');
    return actionOk(`${done.value.prepared}件を「発送準備中」にしました。会員にお知らせしました。`, { form: 'batch' });
  }

  if (intent === 'importCsv') {
    const file = form.get('file');
    if (!(file instanceof File) || file.size === 0)
      return actionRefused('CSVファイルを選んでください。', { form: 'csv' });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const done = await shipShippingRequestsFromCsv(db, operator, rules, bytes, {
      maxBytes: config.SHIPPING_CSV_MAX_BYTES,
      maxRows: config.SHIPPING_CSV_MAX_ROWS,
    });
    if (!done.ok) {
      const described = describeRefusal(done as Refusal<RefusalCode>);
      const details = (done.details ?? {}) as {
        rows?: { line: number; message: string }[];
        file?: { message: string; line: number | null };
      };
      const problems = details.rows
        ? details.rows.map((r) => ({ line: r.line, message: r.message }))
        : details.file
          ? [{ line: details.file.line, message: details.file.message }]
          : [];
      return actionRefused<DeskExtra>(described.message, { form: 'csv', problems, status: described.status });
    }
    return actionOk(
      `${done.value.shipped.length}件を「発送済み」にしました（${file.name}）。会員に追跡番号をお知らせしました。`,
      { form: 'csv' },
    );
  }

  return actionRefused('操作を選び直してください。');
}

// ── One request ──────────────────────────────────────────────────────────────────────────────────

export async function shippingRequestLoader(shop: ShopRequest, request: Request, requestId: string) {
  const operator = await requireOperator(shop, request, 'shipping:read');
  if (!isUuid(requestId)) throw notFound(new URL(request.url).pathname);
  const rules = shippingRulesOf(shop.services.config);
  const shown = await getShippingRequestForDesk(shop.services.db, operator, rules, requestId);
  if (!shown.ok) {
    if (shown.code === 'SHIPPING_REQUEST_NOT_FOUND') throw notFound(new URL(request.url).pathname);
    throw data(describeRefusal(shown as Refusal<RefusalCode>).message, { status: 403 });
  }
  const r = shown.value;
  const canWrite = operator.permissions.has('shipping:write');
  // What the member asked about this request and nobody has closed yet: shown first, and named in the
  // confirmation before it is marked shipped. The subject is the inquirer's own words: inquiries:read only.
  const canReadInquiries = operator.permissions.has('inquiries:read');
  const inquiries = (await openInquiriesAbout(shop.services.db, { kind: 'shipping_request', id: r.id })).map((q) => ({
    id: q.id,
    reference: q.reference,
    subject: canReadInquiries ? q.subject : null,
    statusLabel: INQUIRY_STATUS_LABELS[q.status],
    createdAt: q.createdAt,
  }));
  // A card found missing or damaged while packing: the cards that may replace it (worth at least the
  // prize, one available), per value the request's cards have.
  const reportable = canWrite && (r.status === 'requested' || r.status === 'preparing');
  const candidates: Record<number, { id: string; label: string }[]> = {};
  if (reportable)
    for (const value of new Set(r.items.filter((i) => !i.substitute).map((i) => i.conversionValue)))
      candidates[value] = (await substituteCandidates(shop.services.db, { minValue: value, limit: 30 })).map((c) => ({
        id: c.id,
        label: `${[c.cardName, c.cardSet, c.cardNumber, c.cardGrade].filter(Boolean).join(' ')}（${c.valueCoins.toLocaleString('ja-JP')}コイン・在庫${c.available}）`,
      }));
  return {
    reportable,
    candidates,
    request: {
      ...r,
      statusLabel: SHIPPING_STATUS_LABELS[r.status],
      promisedLabel: jstDateLabel(r.promisedDate),
      events: r.events.map((e) => ({ ...e, statusLabel: SHIPPING_STATUS_LABELS[e.status] })),
      actions: canWrite ? r.actions.map((a) => ({ id: a, label: SHIPPING_TRANSITIONS[a].label })) : [],
    },
    carriers: carrierOptions(),
    canWrite,
    inquiries,
    canReadInquiries,
    members: await memberTagsFor(shop.services.db, operator, [r.memberId]),
  };
}

const MOVES = [
  'prepare',
  'ship',
  'deliver',
  'return',
  'reship',
  'convertReturned',
  'cancelByShop',
  'note',
  'reportMissing',
] as const;
type Move = (typeof MOVES)[number];

export async function shippingRequestAction(shop: ShopRequest, request: Request, requestId: string) {
  const operator = await requireOperator(shop, request, 'shipping:write');
  if (!isUuid(requestId)) throw notFound(new URL(request.url).pathname);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const intent = text('intent') as Move;
  if (!MOVES.includes(intent)) return actionRefused('操作を選び直してください。');
  const db = shop.services.db;
  const rules = shippingRulesOf(shop.services.config);
  const label = (status: ShippingStatus) => SHIPPING_STATUS_LABELS[status];

  switch (intent) {
    case 'prepare': {
      const done = await prepareShippingRequests(db, operator, rules, [requestId]);
      return done.ok
        ? actionOk('「発送準備中」にしました。会員にお知らせしました。', { form: intent })
        : refused(done, intent);
    }
    case 'ship': {
      // An open inquiry about the request must have been seen in the confirmation (one that arrived
      // after the page was shown too): the member may have asked to change or stop it.
      const seen = new Set(text(INQUIRIES_SEEN_FIELD).split(','));
      const unseen = (await openInquiriesAbout(db, { kind: 'shipping_request', id: requestId })).filter(
        (q) => !seen.has(q.id),
      );
      if (unseen.length > 0)
        return actionRefused(
          `この依頼へのお問い合わせ（${unseen.map((q) => q.reference).join('、')}）が未完了です。内容を確認してから発送済みにしてください。`,
          { form: intent, status: 409 },
        );
      const done = await shipShippingRequest(db, operator, rules, {
        requestId,
        carrier: text('carrier'),
        trackingNumber: text('trackingNumber'),
      });
      return done.ok
        ? actionOk(
            `「発送済み」にしました（${CARRIERS[done.value.carrier].name} ${done.value.trackingNumber}）。会員に追跡番号をお知らせしました。`,
            { form: intent },
          )
        : refused(done, intent);
    }
    case 'deliver':
    case 'return':
    case 'reship': {
      const move =
        intent === 'deliver'
          ? markShippingDelivered
          : intent === 'return'
            ? markShippingReturned
            : reshipReturnedRequest;
      const done = await move(db, operator, rules, requestId);
      return done.ok
        ? actionOk(`「${label(done.value.status)}」にしました。会員にお知らせしました。`, { form: intent })
        : refused(done, intent);
    }
    case 'convertReturned': {
      const done = await convertReturnedRequest(db, operator, rules, requestId);
      return done.ok
        ? actionOk(
            `${done.value.items}枚を${done.value.coins.toLocaleString('ja-JP')}コインに交換しました。会員にお知らせしました。`,
            { form: intent },
          )
        : refused(done, intent);
    }
    case 'cancelByShop': {
      const note = text('noteForMember').trim();
      if (note.length > 500)
        return actionRefused('会員へのお知らせは500文字以内で入力してください。', { form: intent });
      const done = await cancelShippingRequestByShop(db, operator, rules, requestId, { noteForMember: note || null });
      if (!done.ok) return refused(done, intent);
      const refund = done.value.refundCoins
        ? `手数料${done.value.refundCoins.toLocaleString('ja-JP')}コインを返し、`
        : '';
      return actionOk(`キャンセルしました。${refund}${done.value.items}枚を会員の獲得商品（保管中）に戻しました。`, {
        form: intent,
      });
    }
    case 'reportMissing': {
      const kind = text('resolution');
      const parsed = missingCardReportSchema.safeParse({
        requestId,
        prizeId: text('prizeId'),
        condition: text('condition'),
        resolution:
          kind === 'substitute'
            ? { kind, stockCardId: text('stockCardId') }
            : kind === 'compensation'
              ? { kind, coins: text('coins') }
              : undefined,
        noteForMember: text('noteForMember'),
      });
      if (!parsed.success)
        return actionRefused(parsed.error.issues[0]?.message ?? '入力を確認してください。', { form: intent });
      const done = await reportMissingCard(db, operator, rules, parsed.data);
      if (!done.ok) return refused(done, intent);
      const what = done.value.condition === 'missing' ? '在庫なし' : '破損';
      return actionOk(
        done.value.substitute
          ? `${what}として記録し、代わりに「${done.value.substitute.cardName}」を送ります。会員にお知らせしました。`
          : `${what}として記録し、${done.value.compensationCoins.toLocaleString('ja-JP')}コインで補償しました${done.value.requestCanceled ? '（送るカードがなくなったため、この依頼はキャンセルしました）' : ''}。会員にお知らせしました。`,
        { form: intent },
      );
    }
    case 'note': {
      const parsed = internalNoteSchema.safeParse({ note: text('note') });
      if (!parsed.success)
        return actionRefused(parsed.error.issues[0]?.message ?? 'メモを確認してください。', { form: intent });
      const done = await setShippingInternalNote(db, operator, requestId, parsed.data.note);
      return done.ok
        ? actionOk(done.value.internalNote ? 'メモを保存しました。' : 'メモを消しました。', { form: intent })
        : refused(done, intent);
    }
  }
}

// ── A batch: pick list and packing slips, label CSV ─────────────────────────────────────────────

/** The batch's request ids from the query string (?id=…&id=…), or a 400 that says what to do. */
function batchIds(url: URL): string[] {
  const ids = [...new Set(url.searchParams.getAll('id'))];
  if (ids.length === 0 || !ids.every(isUuid)) throw data('印刷・出力する依頼を一覧で選んでください。', { status: 400 });
  if (ids.length > DESK_BATCH_MAX) throw data(`一度に選べる依頼は${DESK_BATCH_MAX}件までです。`, { status: 400 });
  return ids;
}

export async function shippingBatchLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'shipping:read');
  const ids = batchIds(new URL(request.url));
  const done = await shippingBatchForDesk(shop.services.db, operator, shippingRulesOf(shop.services.config), ids);
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    throw data(described.message, { status: described.status });
  }
  const parcels = done.value.map((p) => ({
    ...p,
    statusLabel: SHIPPING_STATUS_LABELS[p.status],
    promisedLabel: jstDateLabel(p.promisedDate),
  }));
  // The pick list: each card once, with how many to pick and for which parcels.
  const picks = new Map<
    string,
    {
      key: string;
      cardName: string;
      cardSet: string | null;
      cardNumber: string | null;
      cardGrade: string | null;
      rarity: string | null;
      imagePath: string;
      tierLabel: string;
      gachaTitle: string;
      count: number;
      parcels: number[];
    }
  >();
  parcels.forEach((parcel, index) => {
    for (const item of parcel.items) {
      const key = [item.gachaId, item.tierLabel, item.cardName, item.cardSet, item.cardNumber, item.cardGrade].join(
        '|',
      );
      const pick = picks.get(key) ?? {
        key,
        cardName: item.cardName,
        cardSet: item.cardSet,
        cardNumber: item.cardNumber,
        cardGrade: item.cardGrade,
        rarity: item.rarity,
        imagePath: item.imagePath,
        tierLabel: item.tierLabel,
        gachaTitle: item.gachaTitle,
        count: 0,
        parcels: [],
      };
      pick.count += 1;
      if (!pick.parcels.includes(index + 1)) pick.parcels.push(index + 1);
      picks.set(key, pick);
    }
  });
  return {
    parcels,
    picks: [...picks.values()].sort((a, b) => a.cardName.localeCompare(b.cardName, 'ja')),
    printedAt: new Date().toISOString(),
    siteName: shop.services.config.SITE_NAME,
  };
}

/** 品名 on every label unless the operator types another: generic, so the parcel does not invite theft. */
export const DEFAULT_LABEL_ITEM = 'トレーディングカード';

export async function shippingLabelsLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'shipping:read');
  const url = new URL(request.url);
  const ids = batchIds(url);
  const shipDate = (url.searchParams.get('shipDate') ?? '').trim() || jstToday();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(shipDate) || Number.isNaN(Date.parse(`${shipDate}T00:00:00Z`)))
    throw data('出荷予定日は 2027-05-10 の形で入力してください。', { status: 400 });
  const itemDescription = (url.searchParams.get('item') ?? '').trim() || DEFAULT_LABEL_ITEM;
  if (itemDescription.length > 30) throw data('品名は30文字以内で入力してください。', { status: 400 });
  const done = await exportLabelCsv(shop.services.db, operator, shippingRulesOf(shop.services.config), ids, {
    shipDate,
    itemDescription,
  });
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    throw data(described.message, { status: described.status });
  }
  return new Response(done.value, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="labels-${shipDate}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
