// The inquiry desk's pages (/admin/inquiries): the list with counts per status and filters, one
// inquiry with its thread, images, related item, answer form (with templates), status, assignee and
// internal note, the reply templates, and the images themselves (only to operators with
// inquiries:read). Every read of an inquiry and every change goes through the support module's desk
// functions, which check the permission and write the audit entry in the same transaction.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { memberTagsFor } from '~/controllers/member-tags.server';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { notFound } from '~/lib/not-found';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { supportRulesOf } from '#server/context';
import { isMediaStoreUnavailable, isUuid, MEDIA_STORE_RETRY_AFTER_SECONDS, type Refusal } from '#modules/kernel';
import {
  INQUIRY_CATEGORY_LABELS,
  INQUIRY_LIMITS,
  INQUIRY_STATUS_LABELS,
  deleteReplyTemplate,
  getInquiryForDesk,
  inquiriesOfMember,
  inquiryAssignees,
  readInquiryAttachment,
  inquiryCategories,
  inquiryFilterSchema,
  inquiryNoteSchema,
  inquiryReplySchema,
  inquiryStatuses,
  inquiryUpdateSchema,
  listInquiries,
  listReplyTemplates,
  replyTemplateSchema,
  replyToInquiry,
  saveReplyTemplate,
  setInquiryNote,
  updateInquiry,
} from '#modules/support';

/** What a desk action answers, for one form; `draft` is the answer's text handed back when it was refused. */
export type InquiryActionData = AdminActionResult<{ draft: string }>;

const statusOptions = () => inquiryStatuses.map((id) => ({ id, label: INQUIRY_STATUS_LABELS[id] }));
const categoryOptions = () => inquiryCategories.map((id) => ({ id, label: INQUIRY_CATEGORY_LABELS[id] }));

const refused = (refusal: Refusal<string>, form: string, extra: { draft?: string } = {}) => {
  const described = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused<{ draft: string }>(described.message, { form, ...extra, status: described.status });
};

async function readForm(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    return null;
  }
}
const textOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** Staff by id, for the names beside answers and assignees (someone no longer staff shows as their id). */
async function staffNames(shop: ShopRequest) {
  const staff = await inquiryAssignees(shop.services.db);
  return { staff, nameOf: (id: string | null) => (id ? (staff.find((s) => s.id === id)?.name ?? id) : null) };
}

// ── The list ─────────────────────────────────────────────────────────────────────────────────────

export async function inquiryListLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'inquiries:read');
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = inquiryFilterSchema.safeParse(query);
  const filterError = parsed.success ? null : (parsed.error.issues[0]?.message ?? '絞り込みの条件を確認してください。');
  const filter = parsed.success ? parsed.data : inquiryFilterSchema.parse({});
  const listed = await listInquiries(shop.services.db, operator, filter);
  if (!listed.ok) throw data(describeRefusal(listed as Refusal<RefusalCode>).message, { status: 403 });
  const { staff, nameOf } = await staffNames(shop);
  return {
    filter: {
      status: filter.status ?? '',
      category: filter.category ?? '',
      assignee: filter.assignee ?? '',
      q: filter.q ?? '',
      page: filter.page,
    },
    filterError,
    list: {
      ...listed.list,
      items: listed.list.items.map((item) => ({
        ...item,
        statusLabel: INQUIRY_STATUS_LABELS[item.status],
        categoryLabel: INQUIRY_CATEGORY_LABELS[item.category],
        assigneeName: nameOf(item.assigneeId),
      })),
    },
    statuses: statusOptions(),
    categories: categoryOptions(),
    staff: staff.map((s) => ({ id: s.id, name: s.name })),
    canWrite: operator.permissions.has('inquiries:write'),
    members: await memberTagsFor(
      shop.services.db,
      operator,
      listed.list.items.map((item) => item.memberId),
    ),
  };
}

// ── One inquiry ──────────────────────────────────────────────────────────────────────────────────

export async function inquiryLoader(shop: ShopRequest, request: Request, inquiryId: string) {
  const operator = await requireOperator(shop, request, 'inquiries:read');
  const path = new URL(request.url).pathname;
  if (!isUuid(inquiryId)) throw notFound(path);
  const db = shop.services.db;
  const shown = await getInquiryForDesk(db, operator, inquiryId);
  if (!shown.ok) {
    if (shown.code === 'INQUIRY_NOT_FOUND') throw notFound(path);
    throw data(describeRefusal(shown as Refusal<RefusalCode>).message, { status: 403 });
  }
  const inquiry = shown.value;
  const { staff, nameOf } = await staffNames(shop);
  const listed = await listReplyTemplates(db, operator);
  const templates = listed.ok ? listed.templates : [];
  // Without scripts, 「テンプレートを挿入」 comes back here with ?template=<id>: its text starts the answer.
  const chosen = new URL(request.url).searchParams.get('template');
  const earlier = inquiry.memberId
    ? (await inquiriesOfMember(db, operator, inquiry.memberId)).filter((i) => i.id !== inquiry.id)
    : [];
  return {
    inquiry: {
      ...inquiry,
      statusLabel: INQUIRY_STATUS_LABELS[inquiry.status],
      categoryLabel: INQUIRY_CATEGORY_LABELS[inquiry.category],
      assigneeName: nameOf(inquiry.assigneeId),
      relatedLink:
        inquiry.related?.kind === 'shipping_request' && inquiry.related.label
          ? `/admin/shipping/${inquiry.related.id}`
          : null,
      messages: inquiry.messages.map((m) => ({ ...m, staffName: nameOf(m.staffId) })),
    },
    earlier: earlier.map((e) => ({ ...e, statusLabel: INQUIRY_STATUS_LABELS[e.status] })),
    templates: templates.map((t) => ({ id: t.id, title: t.title, body: t.body })),
    draft: templates.find((t) => t.id === chosen)?.body ?? '',
    statuses: statusOptions(),
    staff: staff.map((s) => ({ id: s.id, name: s.name })),
    limits: { reply: INQUIRY_LIMITS.reply, note: INQUIRY_LIMITS.note },
    canWrite: operator.permissions.has('inquiries:write'),
    members: await memberTagsFor(db, operator, [inquiry.memberId]),
  };
}

const INTENTS = ['reply', 'update', 'note'] as const;

export async function inquiryAction(shop: ShopRequest, request: Request, inquiryId: string) {
  const operator = await requireOperator(shop, request, 'inquiries:write');
  if (!isUuid(inquiryId)) throw notFound(new URL(request.url).pathname);
  const form = await readForm(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const intent = textOf(form, 'intent') as (typeof INTENTS)[number];
  if (!INTENTS.includes(intent)) return actionRefused('操作を選び直してください。');
  const db = shop.services.db;
  const firstIssue = (error: { issues: { message: string }[] }) =>
    error.issues[0]?.message ?? '入力内容をご確認ください。';

  switch (intent) {
    case 'reply': {
      const draft = textOf(form, 'body');
      const parsed = inquiryReplySchema.safeParse({ body: draft, status: textOf(form, 'status') || undefined });
      if (!parsed.success) return actionRefused<{ draft: string }>(firstIssue(parsed.error), { form: intent, draft });
      const done = await replyToInquiry(db, operator, supportRulesOf(shop.services), inquiryId, parsed.data);
      if (!done.ok) return refused(done, intent, { draft });
      return actionOk(
        `回答を送信しました（お客様にメールでお知らせしました）。状態:「${INQUIRY_STATUS_LABELS[done.value.status]}」`,
        { form: intent },
      );
    }
    case 'update': {
      const parsed = inquiryUpdateSchema.safeParse({
        status: textOf(form, 'status'),
        assigneeId: textOf(form, 'assigneeId'),
      });
      if (!parsed.success) return actionRefused(firstIssue(parsed.error), { form: intent });
      const done = await updateInquiry(db, operator, inquiryId, parsed.data);
      return done.ok ? actionOk('状態と担当者を保存しました。', { form: intent }) : refused(done, intent);
    }
    case 'note': {
      const parsed = inquiryNoteSchema.safeParse({ note: textOf(form, 'note') });
      if (!parsed.success) return actionRefused(firstIssue(parsed.error), { form: intent });
      const done = await setInquiryNote(db, operator, inquiryId, parsed.data.note);
      return done.ok
        ? actionOk(done.value.internalNote ? 'メモを保存しました。' : 'メモを消しました。', { form: intent })
        : refused(done, intent);
    }
  }
}

// ── Templates ────────────────────────────────────────────────────────────────────────────────────

export async function templatesLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'inquiries:read');
  const listed = await listReplyTemplates(shop.services.db, operator);
  if (!listed.ok) throw data(describeRefusal(listed as Refusal<RefusalCode>).message, { status: 403 });
  const editing = new URL(request.url).searchParams.get('edit');
  return {
    templates: listed.templates,
    editing: listed.templates.find((t) => t.id === editing) ?? null,
    limits: { title: INQUIRY_LIMITS.templateTitle, body: INQUIRY_LIMITS.templateBody },
    canWrite: operator.permissions.has('inquiries:write'),
  };
}

export async function templatesAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'inquiries:write');
  const form = await readForm(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const db = shop.services.db;
  const intent = textOf(form, 'intent');
  const id = textOf(form, 'id') || undefined;
  if (intent === 'save') {
    const parsed = replyTemplateSchema.safeParse({ title: textOf(form, 'title'), body: textOf(form, 'body') });
    if (!parsed.success)
      return actionRefused(parsed.error.issues[0]?.message ?? '入力内容をご確認ください。', { form: 'save' });
    const done = await saveReplyTemplate(db, operator, { ...parsed.data, id });
    if (!done.ok) return refused(done, 'save');
    return actionOk(id ? 'テンプレートを更新しました。' : 'テンプレートを追加しました。', { form: 'save' });
  }
  if (intent === 'delete') {
    const done = await deleteReplyTemplate(db, operator, id ?? '');
    return done.ok ? actionOk('テンプレートを削除しました。', { form: 'delete' }) : refused(done, 'delete');
  }
  return actionRefused('操作を選び直してください。');
}

// ── Images ───────────────────────────────────────────────────────────────────────────────────────

/** An attached image (re-encoded WebP), to operators with inquiries:read only; never cached by anyone. */
export async function attachmentLoader(shop: ShopRequest, request: Request, attachmentId: string) {
  const operator = await requireOperator(shop, request, 'inquiries:read');
  const path = new URL(request.url).pathname;
  const size = new URL(request.url).searchParams.get('size') === 'thumb' ? 'thumb' : 'full';
  let found: Awaited<ReturnType<typeof readInquiryAttachment>>;
  try {
    found = await readInquiryAttachment(shop.services.db, operator, supportRulesOf(shop.services), attachmentId, size);
  } catch (error) {
    if (!isMediaStoreUnavailable(error)) throw error; // logged by the store (server/media/store.ts)
    throw data('画像を読み込めませんでした。時間をおいてもう一度お試しください。', {
      status: 503,
      headers: { 'Retry-After': String(MEDIA_STORE_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
    });
  }
  if (!found.ok) {
    if (found.code === 'INQUIRY_NOT_FOUND') throw notFound(path);
    throw data(describeRefusal(found as Refusal<RefusalCode>).message, { status: 403 });
  }
  const bytes = found.bytes;
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': found.contentType,
      'content-length': String(bytes.byteLength),
      'content-disposition': 'inline',
      'cache-control': 'private, no-store',
    },
  });
}
