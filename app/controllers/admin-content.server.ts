// /admin/content's server side (docs/decisions/040): the list of pages, special pages and notices, and
// the editor of one document. Every change goes through the admin module's audited actions with
// 'content:write'. The editor posts its fields as one JSON payload: the rich text as the editor's HTML,
// which only the server turns into structured rich text (htmlToRichText keeps what the sanitiser
// allows); stored rich text goes back to the editor as HTML through richTextToHtml.
import { redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { notFound } from '~/lib/not-found';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { mediaStoreOf } from '#server/context';
import {
  cancelContentScheduleAsOperator,
  createContentAsOperator,
  publishContentAsOperator,
  recordContentImageAsOperator,
  rollbackContentAsOperator,
  saveContentDraftAsOperator,
  scheduleContentAsOperator,
  unpublishContentAsOperator,
} from '#modules/admin';
import {
  CONTENT_IMAGE_MAX_BYTES,
  CONTENT_STATUSES,
  CONTENT_STATUS_LABELS,
  CONTENT_TYPE_LABELS,
  EDITABLE_CONTENT_TYPES,
  getDocumentForEditor,
  htmlToRichText,
  listDocuments,
  listVersions,
  prepareContentImage,
  richTextToHtml,
  versionDiff,
  writeContentImage,
  type ContentDraft,
  type ContentStatus,
  type ContentVersion,
  type EditableContentType,
  type NoticeData,
  type PageData,
  type RichText,
  type Slice,
} from '#modules/content';
import {
  isMediaStoreUnavailable,
  jstLocalInput,
  jstText,
  parseJstDateTime,
  refuse,
  type Refusal,
} from '#modules/kernel';

/** `form` is which part of the page asked: 'new', 'editor', 'actions' or 'history'. */
export type ContentActionData = AdminActionResult;

/** A slice as the editor holds it: plain fields, rich text as HTML, table cells as plain text. */
export type EditorSlice =
  | { kind: 'text'; html: string }
  | { kind: 'image'; url: string; alt: string; width: number; height: number; caption: string }
  | { kind: 'embed'; url: string; caption: string }
  | { kind: 'table'; header: boolean; rows: string[][]; caption: string }
  | { kind: 'button'; label: string; url: string };

/** Everything the editor posts (and is loaded with). */
export interface EditorPayload {
  uid: string;
  tags: string;
  title: string;
  description: string;
  /** Pages: the line every page's footer shows (the kobutsu page's 古物営業法 display). */
  footerNote: string;
  heroImage: string;
  bodyHtml: string;
  startsAt: string;
  endsAt: string;
  important: boolean;
  slices: EditorSlice[];
}

const PAGE_SIZE = 50;

export async function contentListLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'content:write');
  const url = new URL(request.url);
  const type = (EDITABLE_CONTENT_TYPES as readonly string[]).includes(url.searchParams.get('type') ?? '')
    ? (url.searchParams.get('type') as EditableContentType)
    : undefined;
  const status = (CONTENT_STATUSES as readonly string[]).includes(url.searchParams.get('status') ?? '')
    ? (url.searchParams.get('status') as ContentStatus)
    : undefined;
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const { documents, total } = await listDocuments(shop.services.db, { type, status, page, pageSize: PAGE_SIZE });
  return {
    filter: { type: type ?? '', status: status ?? '' },
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    types: EDITABLE_CONTENT_TYPES.map((value) => ({ value, label: CONTENT_TYPE_LABELS[value] })),
    statuses: CONTENT_STATUSES.map((value) => ({ value, label: CONTENT_STATUS_LABELS[value] })),
    documents: documents.map((d) => ({
      id: d.id,
      type: d.type,
      typeLabel: CONTENT_TYPE_LABELS[d.type],
      uid: d.uid,
      title: d.title,
      status: d.status,
      statusLabel: CONTENT_STATUS_LABELS[d.status],
      currentVersion: d.currentVersion,
      publishedVersion: d.publishedVersion,
      scheduledAt: d.scheduledAt ? jstText(d.scheduledAt) : null,
      updatedAt: jstText(d.updatedAt),
    })),
  };
}

const refused = (refusal: Refusal<string>, form: string) => {
  const described = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused(described.message, { form, status: described.status });
};

/** A new document's starting fields (a notice's uid typed with its /notices/ prefix loses it) and an empty body. */
function blankDraft(type: EditableContentType, uid: string, title: string): ContentDraft {
  return type === 'notice'
    ? { uid: uid.replace(/^\/?notices\//, ''), tags: [], data: { title, body: [] } }
    : { uid, tags: [], data: { title, body: [] } };
}

export async function contentListAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'content:write');
  let body: FormData;
  try {
    body = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE, { form: 'new' });
  }
  const type = String(body.get('type') ?? '');
  if (!(EDITABLE_CONTENT_TYPES as readonly string[]).includes(type))
    return actionRefused('種類を選んでください。', { form: 'new' });
  const uid = String(body.get('uid') ?? '').trim();
  const title = String(body.get('title') ?? '').trim();
  const done = await createContentAsOperator(shop.services.db, operator, {
    type: type as EditableContentType,
    draft: blankDraft(type as EditableContentType, uid, title),
  });
  if (!done.ok) return refused(done, 'new');
  throw redirect(`/admin/content/${done.value.id}`);
}

/** Plain text of rich text (a table cell). */
const plainText = (richText: RichText | undefined) =>
  (richText ?? [])
    .map((block) => ('text' in block ? block.text : ''))
    .filter(Boolean)
    .join('\n');
/** A table cell's plain text as rich text: one paragraph per line. */
const cellRichText = (text: string): RichText =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => ({ type: 'paragraph' as const, text: line, spans: [] }));

const linkText = (link: { link_type: string; url?: string } | undefined) =>
  link && 'url' in link ? (link.url ?? '') : '';

function editorSlice(slice: Slice): EditorSlice {
  switch (slice.slice_type) {
    case 'text':
      return { kind: 'text', html: richTextToHtml(slice.primary.text) };
    case 'image':
      return {
        kind: 'image',
        url: slice.primary.image.url,
        alt: slice.primary.image.alt ?? '',
        width: slice.primary.image.dimensions.width,
        height: slice.primary.image.dimensions.height,
        caption: slice.primary.caption ?? '',
      };
    case 'embed':
      return { kind: 'embed', url: slice.primary.embed.embed_url, caption: slice.primary.caption ?? '' };
    case 'table': {
      const head = slice.primary.table.head?.rows ?? [];
      const rows = [...head, ...slice.primary.table.body.rows].map((row) =>
        row.cells.map((cell) => plainText(cell.content)),
      );
      return { kind: 'table', header: head.length > 0, rows, caption: slice.primary.caption ?? '' };
    }
    case 'button':
      return {
        kind: 'button',
        label: slice.primary.label,
        url: linkText(slice.primary.link as { link_type: string; url?: string }),
      };
  }
}

/** The editor's fields of a saved version. */
export function editorPayloadOf(version: Pick<ContentVersion, 'uid' | 'tags' | 'data'>): EditorPayload {
  const d = version.data as Partial<PageData & NoticeData>;
  return {
    uid: version.uid,
    tags: version.tags.join(', '),
    title: d.title ?? '',
    description: d.description ?? '',
    footerNote: d.footerNote ?? '',
    heroImage: typeof d.heroImage === 'string' ? d.heroImage : (d.heroImage?.url ?? ''),
    bodyHtml: richTextToHtml(d.body ?? []),
    startsAt: jstLocalInput(d.startsAt ?? null),
    endsAt: jstLocalInput(d.endsAt ?? null),
    important: d.important ?? false,
    slices: (d.slices ?? []).map(editorSlice),
  };
}

function storedSlice(slice: EditorSlice): Slice {
  switch (slice.kind) {
    case 'text':
      return { slice_type: 'text', primary: { text: htmlToRichText(slice.html) }, items: [] };
    case 'image':
      return {
        slice_type: 'image',
        primary: {
          image: { url: slice.url, alt: slice.alt || null, dimensions: { width: slice.width, height: slice.height } },
          caption: slice.caption || null,
        },
        items: [],
      };
    case 'embed':
      return {
        slice_type: 'embed',
        primary: { embed: { embed_url: slice.url.trim() }, caption: slice.caption || null },
        items: [],
      };
    case 'table': {
      const rows = slice.rows.map((cells, index) => ({
        cells: cells.map((text) => ({
          type: (slice.header && index === 0 ? 'header' : 'data') as 'header' | 'data',
          content: cellRichText(text),
        })),
      }));
      return {
        slice_type: 'table',
        primary: {
          table: slice.header
            ? { head: { rows: rows.slice(0, 1) }, body: { rows: rows.slice(1) } }
            : { body: { rows } },
          caption: slice.caption || null,
        },
        items: [],
      };
    }
    case 'button':
      return {
        slice_type: 'button',
        primary: { label: slice.label, link: { link_type: 'Web', url: slice.url.trim() } },
        items: [],
      };
  }
}

const SLICE_KINDS = new Set(['text', 'image', 'embed', 'table', 'button']);

/** The posted payload as a draft of the document's type; null when it is not the editor's shape. */
export function draftOfPayload(type: EditableContentType, raw: unknown): ContentDraft | { error: string } {
  const p = raw as Partial<EditorPayload> | null;
  if (
    !p ||
    typeof p !== 'object' ||
    !Array.isArray(p.slices) ||
    p.slices.some((s) => !s || !SLICE_KINDS.has((s as EditorSlice).kind))
  )
    return { error: UNREADABLE_FORM_MESSAGE };
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const tags = str(p.tags)
    .split(/[,、]/)
    .map((t) => t.trim())
    .filter(Boolean);
  const body = htmlToRichText(str(p.bodyHtml));
  if (type === 'notice') {
    const startsText = str(p.startsAt).trim();
    const endsText = str(p.endsAt).trim();
    const startsAt = startsText ? parseJstDateTime(startsText) : null;
    const endsAt = endsText ? parseJstDateTime(endsText) : null;
    if ((startsText && !startsAt) || (endsText && !endsAt)) return { error: '表示期間の日時を確認してください。' };
    const notice: NoticeData = {
      title: str(p.title),
      body,
      startsAt: startsAt?.toISOString() ?? null,
      endsAt: endsAt?.toISOString() ?? null,
      important: p.important === true,
    };
    return { uid: str(p.uid).trim(), tags, data: notice };
  }
  const page: PageData = {
    title: str(p.title),
    body,
    slices: (p.slices as EditorSlice[]).map(storedSlice),
    ...(str(p.description).trim() ? { description: str(p.description).trim() } : {}),
    ...(type === 'page' && str(p.footerNote).trim() ? { footerNote: str(p.footerNote).trim() } : {}),
    ...(type === 'special' && str(p.heroImage).trim() ? { heroImage: str(p.heroImage).trim() } : {}),
  };
  return { uid: str(p.uid).trim(), tags, data: page };
}

export async function contentEditorLoader(shop: ShopRequest, request: Request, documentId: string) {
  await requireOperator(shop, request, 'content:write');
  const { db } = shop.services;
  const url = new URL(request.url);
  const doc = await getDocumentForEditor(db, documentId);
  if (!doc) throw notFound(url.pathname);
  const versions = await listVersions(db, documentId);
  const a = Number.parseInt(url.searchParams.get('from') ?? '', 10);
  const b = Number.parseInt(url.searchParams.get('to') ?? '', 10);
  const diff = Number.isInteger(a) && Number.isInteger(b) ? await versionDiff(db, documentId, a, b) : null;
  return {
    document: {
      id: doc.id,
      type: doc.type,
      typeLabel: CONTENT_TYPE_LABELS[doc.type],
      status: doc.status,
      statusLabel: CONTENT_STATUS_LABELS[doc.status],
      currentVersion: doc.currentVersion,
      publishedVersion: doc.publishedVersion,
      publishedAt: doc.publishedAt ? jstText(doc.publishedAt) : null,
      publishedUid: doc.uid,
      scheduledVersion: doc.scheduledVersion,
      scheduledAt: doc.scheduledAt ? jstText(doc.scheduledAt) : null,
    },
    payload: editorPayloadOf(doc.draft),
    versions: versions.map((v) => ({
      version: v.version,
      title: v.title,
      uid: v.uid,
      note: v.note,
      by: v.createdBy ? 'スタッフ' : 'システム',
      at: jstText(v.createdAt),
    })),
    diff: diff ? { from: a, to: b, lines: diff } : null,
    imageMaxMegabytes: Math.floor(CONTENT_IMAGE_MAX_BYTES / 1_000_000),
  };
}

const versionField = (value: FormDataEntryValue | null) => {
  const n = Number.parseInt(String(value ?? ''), 10);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export async function contentEditorAction(shop: ShopRequest, request: Request, documentId: string) {
  const operator = await requireOperator(shop, request, 'content:write');
  let body: FormData;
  try {
    body = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE, { form: 'editor' });
  }
  const { db } = shop.services;
  const intent = String(body.get('intent') ?? '');
  const version = versionField(body.get('version'));
  const doc = await getDocumentForEditor(db, documentId);
  if (!doc) throw notFound(new URL(request.url).pathname);

  if (intent === 'save') {
    let raw: unknown;
    try {
      raw = JSON.parse(String(body.get('payload') ?? ''));
    } catch {
      return actionRefused(UNREADABLE_FORM_MESSAGE, { form: 'editor' });
    }
    const draft = draftOfPayload(doc.type, raw);
    if ('error' in draft) return actionRefused(draft.error, { form: 'editor' });
    const done = await saveContentDraftAsOperator(db, operator, documentId, draft, version ?? 0);
    if (!done.ok) return refused(done, 'editor');
    return actionOk(`版${done.value.version}として保存しました（まだ公開されていません）。`, { form: 'editor' });
  }
  if (intent === 'publish' && version) {
    const done = await publishContentAsOperator(db, operator, documentId, version);
    if (!done.ok) return refused(done, 'actions');
    return actionOk(`版${version}を公開しました（/${done.value.uid}）。`, { form: 'actions' });
  }
  if (intent === 'unpublish') {
    const done = await unpublishContentAsOperator(db, operator, documentId);
    if (!done.ok) return refused(done, 'actions');
    return actionOk('非公開にしました。', { form: 'actions' });
  }
  if (intent === 'rollback' && version) {
    const done = await rollbackContentAsOperator(db, operator, documentId, version);
    if (!done.ok) return refused(done, 'history');
    return actionOk(`版${version}の内容を版${done.value.version}として公開しました。`, { form: 'history' });
  }
  if (intent === 'schedule' && version) {
    const at = parseJstDateTime(String(body.get('at') ?? ''));
    if (!at) return actionRefused('公開する日時を入力してください（日本時間）。', { form: 'actions' });
    const done = await scheduleContentAsOperator(db, operator, documentId, version, at);
    if (!done.ok) return refused(done, 'actions');
    return actionOk(`版${version}を${jstText(at)}に公開するよう予約しました。`, { form: 'actions' });
  }
  if (intent === 'cancel-schedule') {
    const done = await cancelContentScheduleAsOperator(db, operator, documentId);
    if (!done.ok) return refused(done, 'actions');
    return actionOk('公開の予約を取り消しました。', { form: 'actions' });
  }
  return actionRefused('操作を選び直してください。', { form: 'actions' });
}

/** POST /admin/content/images: one image for the editor; answers its URL and size (JSON). */
export async function contentImageUploadAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'content:write');
  let body: FormData;
  try {
    body = await request.formData();
  } catch {
    return Response.json({ error: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
  const file = body.get('image');
  if (!file || typeof file === 'string' || file.size === 0)
    return Response.json({ error: '画像ファイルを選んでください。' }, { status: 400 });
  const refusedJson = (refusal: Refusal<string>) => {
    const described = describeRefusal(refusal as Refusal<RefusalCode>);
    return Response.json({ error: described.message }, { status: described.status, headers: { ...described.headers } });
  };
  // The size first (cheap), before anything decodes it.
  if (file.size > CONTENT_IMAGE_MAX_BYTES)
    return refusedJson({ ok: false, code: 'CONTENT_IMAGE_TOO_LARGE', details: { maxBytes: CONTENT_IMAGE_MAX_BYTES } });
  const prepared = await prepareContentImage(new Uint8Array(await file.arrayBuffer()));
  if (!prepared.ok) return refusedJson(prepared);
  let url: string;
  try {
    url = await writeContentImage(mediaStoreOf(shop.services), prepared.image);
  } catch (error) {
    if (!isMediaStoreUnavailable(error)) throw error; // logged by the store (server/media/store.ts)
    return refusedJson(refuse('MEDIA_STORE_UNAVAILABLE'));
  }
  const done = await recordContentImageAsOperator(shop.services.db, operator, {
    url,
    width: prepared.width,
    height: prepared.height,
  });
  if (!done.ok) return refusedJson(done);
  return Response.json(done.value);
}
