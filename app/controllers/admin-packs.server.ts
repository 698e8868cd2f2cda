// /admin/packs and /admin/packs/:packId: the pack editor (decision 030). A draft is written step by
// step (基本情報 → 販売設定 → 賞 → 画像 → 確認・公開); each step is one audited admin action of
// packs:write. The review step shows the pack's numbers and the pre-publish checks, links to the
// preview (the member's page itself), and publishes. A published pack is shown read-only: end early,
// copy to a new draft, and its reveal once it is over. A graded card's photo is also kept as uploaded with
// its SHA-256 (the server hashes the bytes), the proof a valuable hit exists (issue 33 item 8).
import path from 'node:path';
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { numberField, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import {
  discardUploadedImage,
  mediaStoreOf,
  siteImageExists,
  storeOriginalPhoto,
  storeUploadedImage,
} from '#server/context';
import {
  copyPackAsOperator,
  createDraftAsOperator,
  endPackAsOperator,
  publishPackAsOperator,
  setDraftTierImageAsOperator,
  setDraftTiersAsOperator,
  updateDraftAsOperator,
  type Operator,
  type OperatorOutcome,
} from '#modules/admin';
import {
  gradeCompanyOf,
  listAllGenres,
  listPacksForEditor,
  packBasicsSchema,
  packForEditor,
  packNumbers,
  packSaleSchema,
  packTiersSchema,
  prePublishChecks,
  tierRowOf,
  type TierRow,
  zoromeNumbers,
} from '#modules/gacha';
import { parseShopDateTime } from '#modules/shop';
import { refuse, type Refusal } from '#modules/kernel';
import { PACK_STEPS, STATUS_LABELS, type PackEditorAnswer, type PackStep } from '~/lib/admin-packs';
import { actionOk, actionRefused } from '~/lib/admin-action';

/** The editor's own part of its answer: what was typed. */
type PackExtra = { typed: Record<string, string> };

export { PACK_STEPS, STATUS_LABELS, type PackEditorAnswer, type PackStep };

const localJst = (date: Date | null) =>
  date ? new Date(date.getTime() + 9 * 3600_000).toISOString().slice(0, 16) : '';

function fieldErrors(issues: { path: PropertyKey[]; message: string }[], prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = prefix + issue.path.map(String).join('.');
    fields[key || '_'] ??= issue.message;
  }
  return fields;
}

function refused(outcome: Refusal<string>, typed?: Record<string, string>) {
  const described = describeRefusal(outcome as Refusal<RefusalCode>);
  return actionRefused<PackExtra>(described.message, { typed, status: described.status });
}

async function readForm(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
const textFields = (form: FormData) => {
  const typed: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === 'string') typed[name] = value;
  return typed;
};

// ── The list ───────────────────────────────────────────────────────────────────────────────────────

export async function packListLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'packs:write');
  const status = new URL(request.url).searchParams.get('status') ?? '';
  const { db } = shop.services;
  const [packs, genres] = await Promise.all([
    listPacksForEditor(db, STATUS_LABELS[status] ? { status } : {}),
    listAllGenres(db),
  ]);
  return {
    status: STATUS_LABELS[status] ? status : '',
    genres: genres.map((g) => ({ id: g.id, name: g.name })),
    packs: packs.map((p) => ({
      ...p,
      statusLabel: STATUS_LABELS[p.status] ?? p.status,
      saleStartsAt: p.saleStartsAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
    })),
  };
}

/** POST /admin/packs: step 1 of a new pack; then on to its sale step. */
export async function packListAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'packs:write');
  const form = await readForm(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const typed = textFields(form);
  const parsed = packBasicsSchema.safeParse(typed);
  if (!parsed.success)
    return actionRefused<PackExtra>('入力を確認してください。', { fields: fieldErrors(parsed.error.issues), typed });
  const done = await createDraftAsOperator(shop.services.db, operator, parsed.data);
  if (!done.ok) return refused(done, typed);
  throw redirect(`/admin/packs/${parsed.data.id}?step=sale`);
}

// ── One pack ───────────────────────────────────────────────────────────────────────────────────────

function publicDirs() {
  return [path.resolve('build/client'), path.resolve('public')];
}

export async function packEditorLoader(shop: ShopRequest, request: Request, packId: string) {
  await requireOperator(shop, request, 'packs:write');
  const { db, config } = shop.services;
  const found = await packForEditor(db, packId);
  if (!found) throw data({ notFound: true }, { status: 404 });
  const { pack, definition } = found;
  const stepParam = new URL(request.url).searchParams.get('step');
  const draft = pack.status === 'draft';
  const step: PackStep = PACK_STEPS.some((s) => s.id === stepParam)
    ? (stepParam as PackStep)
    : draft
      ? 'basics'
      : 'review';
  const genres = (await listAllGenres(db)).map((g) => ({ id: g.id, name: g.name }));
  const numbers = packNumbers(definition, {
    paymentFeePercent: config.PAYMENT_FEE_PERCENT,
    shippingCostPerPrizeYen: config.SHIPPING_COST_PER_PRIZE_YEN,
  });
  const checks =
    draft && step === 'review'
      ? await prePublishChecks(db, packId, {
          forbiddenWords: config.PACK_FORBIDDEN_WORDS,
          imageExists: (p) => siteImageExists(mediaStoreOf(shop.services), publicDirs(), p),
          certifiedPrizeMinCoins: config.CERTIFIED_PRIZE_MIN_COINS,
        })
      : null;
  return {
    step,
    draft,
    genres,
    // Whether this shop can publish a beacon pack (a drand chain and a receipt key: decision 081).
    beaconAvailable: Boolean(shop.services.beacon?.publishTerms),
    pack: {
      id: pack.id,
      genreId: pack.genreId,
      title: pack.title,
      description: pack.description,
      imagePath: pack.imagePath,
      status: pack.status,
      statusLabel: STATUS_LABELS[pack.status] ?? pack.status,
      pricePerDraw: pack.pricePerDraw,
      drawOptions: pack.drawOptions,
      perMemberLimit: pack.perMemberLimit,
      minRank: pack.minRank,
      drawMode: pack.drawMode,
      waitingRoom: pack.waitingRoom ?? false,
      waitingRoomWindowSeconds: pack.waitingRoomWindowSeconds ?? 180,
      waitingRoomBatch: pack.waitingRoomBatch ?? 50,
      tags: pack.tags,
      sortOrder: pack.sortOrder,
      saleStartsAtLocal: localJst(pack.saleStartsAt),
      saleEndsAtLocal: localJst(pack.saleEndsAt),
      totalLots: pack.totalLots,
      remainingLots: pack.remainingLots,
      commitment: pack.commitment,
      revealed: Boolean(pack.revealedAt),
    },
    tiers: definition.tiers.map(tierRowOf),
    /** By tier key: a graded card's photo kept as uploaded (its SHA-256 and the original's path). */
    photos: found.photos,
    certifiedPrizeMinCoins: config.CERTIFIED_PRIZE_MIN_COINS,
    numbers,
    checks,
    imageMaxMb: Math.floor(config.PACK_IMAGE_MAX_BYTES / 1_000_000),
  };
}

/** What an operator types for every ゾロ目 as a キリ番賞's numbers (decision 086). */
const ZOROME = 'ゾロ目';

/** A list of numbers as typed (「10, 50」「10、50」); a word that is not a number fails the row's check. */
const numbersField = (value: string) =>
  value
    .normalize('NFKC')
    .split(/[,、\s]+/)
    .filter(Boolean)
    .map((n) => numberField(n) ?? Number.NaN);

/** The tier table's rows (`tiers.<i>.<field>`), skipping a blank new row and the rows marked for removal. */
function tierRowsFrom(form: FormData): { rows: Record<string, unknown>[]; indexes: number[] } {
  const count = Math.min(Number(text(form, 'tierCount')) || 0, 60);
  const rows: Record<string, unknown>[] = [];
  const indexes: number[] = [];
  const orders: number[] = [];
  for (let i = 0; i < count; i++) {
    const f = (name: string) => text(form, `tiers.${i}.${name}`);
    if (f('remove') === '1') continue;
    if (f('isNew') === '1' && !f('label').trim() && !f('cardName').trim()) continue;
    const kiriban = f('kiribanAt').normalize('NFKC').trim();
    rows.push({
      key: f('key'),
      kind: f('kind'),
      label: f('label'),
      effect: f('effect') || 'normal',
      cardName: f('cardName'),
      cardSet: f('cardSet'),
      cardNumber: f('cardNumber'),
      rarity: f('rarity'),
      gradeCompany: f('gradeCompany'),
      gradeValue: f('gradeValue'),
      cardCondition: f('cardCondition'),
      certificateNumber: f('certificateNumber'),
      cardImagePath: f('cardImagePath'),
      quantity: f('kind') === 'regular' ? numberField(f('quantity')) : 1,
      conversionValue: numberField(f('conversionValue')),
      cardCostYen: numberField(f('cardCostYen')) ?? null,
      kiribanAt: kiriban === ZOROME ? ZOROME : numbersField(kiriban),
      personalKiribanAt: numbersField(f('personalKiribanAt')),
      pitariOf: f('pitariOf'),
      ceilingAfter: f('kind') === 'ceiling' ? (numberField(f('ceilingAfter')) ?? null) : null,
      ceilingFrom: f('kind') === 'ceiling' ? f('ceilingFrom') : '',
    });
    indexes.push(i);
    orders.push(numberField(f('order')) ?? i + 1);
  }
  // 「ゾロ目」 in a キリ番賞's numbers: every ゾロ目 below this table's total (issue 34 item 2), shown back as numbers.
  const total = rows.reduce((sum, r) => sum + (r.kind === 'regular' ? Number(r.quantity) || 0 : 0), 0);
  for (const row of rows) if (row.kiribanAt === ZOROME) row.kiribanAt = zoromeNumbers(total);
  // The rows' 順番 fields reorder the tiers (the best first); equal numbers keep the table's order.
  const sorted = rows.map((row, k) => ({ row, index: indexes[k]!, order: orders[k]! }));
  sorted.sort(
    (a, b) => (Number.isFinite(a.order) ? a.order : 0) - (Number.isFinite(b.order) ? b.order : 0) || a.index - b.index,
  );
  return { rows: sorted.map((r) => r.row), indexes: sorted.map((r) => r.index) };
}

function saleFrom(form: FormData) {
  const starts = text(form, 'saleStartsAt').trim();
  const ends = text(form, 'saleEndsAt').trim();
  const startsAt = starts ? parseShopDateTime(starts) : null;
  const endsAt = ends ? parseShopDateTime(ends) : null;
  const problems: Record<string, string> = {};
  if (starts && !startsAt) problems.saleStartsAt = '販売開始の日時を正しく入力してください。';
  if (ends && !endsAt) problems.saleEndsAt = '販売終了の日時を正しく入力してください。';
  return {
    problems,
    value: {
      pricePerDraw: numberField(text(form, 'pricePerDraw')),
      drawOptions: form.getAll('drawOptions').map((v) => numberField(String(v)) ?? Number.NaN),
      perMemberLimit: numberField(text(form, 'perMemberLimit')) ?? null,
      minRank: text(form, 'minRank') === '' ? null : numberField(text(form, 'minRank')),
      tags: form.getAll('tags').map(String),
      sortOrder: numberField(text(form, 'sortOrder')) ?? 0,
      saleStartsAt: startsAt,
      saleEndsAt: endsAt,
      drawMode: text(form, 'drawMode') || 'sequence',
      waitingRoom: text(form, 'waitingRoom') === 'on',
      waitingRoomWindowSeconds: numberField(text(form, 'waitingRoomWindowSeconds')) ?? 180,
      waitingRoomBatch: numberField(text(form, 'waitingRoomBatch')) ?? 50,
    },
  };
}

/**
 * 画像: the pack's image or a tier's photo, re-encoded; a graded card's photo is also kept byte for byte,
 * named by the SHA-256 of the uploaded bytes (the proof on the pack page, issue 33 item 8). The grade is
 * read here; the tier step keeps the photo only while the card stays graded.
 */
async function uploadDraftImage(
  shop: ShopRequest,
  operator: Operator,
  packId: string,
  intent: 'pack-image' | 'tier-image',
  form: FormData,
) {
  const { db, config } = shop.services;
  const file = form.get('image');
  if (!(file instanceof Blob))
    return actionRefused<PackExtra>('入力を確認してください。', {
      fields: { image: '画像ファイルを選んでください。' },
      typed: textFields(form),
    });
  const store = mediaStoreOf(shop.services);
  const tierKey = text(form, 'tierKey');
  const tier =
    intent === 'tier-image'
      ? (await packForEditor(db, packId))?.definition.tiers.find((t) => t.key === tierKey)
      : undefined;
  const original = gradeCompanyOf(tier?.cardGrade)
    ? await storeOriginalPhoto(store, new Uint8Array(await file.arrayBuffer()), {
        maxBytes: config.PACK_IMAGE_MAX_BYTES,
      })
    : null;
  if (original && !original.ok)
    return actionRefused(original.message, { fields: { image: original.message }, status: original.status });
  const stored = await storeUploadedImage(store, 'packs', file, { maxBytes: config.PACK_IMAGE_MAX_BYTES });
  if (!stored.ok) return actionRefused(stored.message, { fields: { image: stored.message }, status: stored.status });
  // Stored first, recorded second: a refused step (no longer a draft, no such tier) takes its upload
  // back, and one the process never finished is the daily clean-up's (decision 071). An original is
  // named by its hash and may be another tier's too: only the clean-up takes it, once nothing names it.
  const kept = original?.ok ? { sha256: original.sha256, originalPath: original.path } : null;
  const outcome = await (
    intent === 'pack-image'
      ? updateDraftAsOperator(db, operator, packId, { imagePath: stored.path })
      : setDraftTierImageAsOperator(db, operator, packId, tierKey, stored.path, kept)
  ).catch(async (error: unknown) => {
    await discardUploadedImage(store, stored.path);
    throw error;
  });
  if (!outcome.ok) {
    await discardUploadedImage(store, stored.path);
    return refused(outcome, textFields(form));
  }
  return actionOk(
    intent === 'pack-image'
      ? 'パック画像を登録しました。'
      : kept
        ? `カードの写真を登録しました（鑑定品: 原本を保存、SHA-256 ${kept.sha256}）。`
        : 'カードの写真を登録しました。',
  );
}

export async function packEditorAction(shop: ShopRequest, request: Request, packId: string) {
  const operator = await requireOperator(shop, request, 'packs:write');
  const { db, config } = shop.services;
  const form = await readForm(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const intent = text(form, 'intent');
  const typed = textFields(form);
  const invalid = (fields: Record<string, string>) =>
    actionRefused<PackExtra>('入力を確認してください。', { fields, typed });
  const after = async (outcome: OperatorOutcome<unknown>, ok: string, next?: string) => {
    if (!outcome.ok) return refused(outcome, typed);
    if (next) throw redirect(`/admin/packs/${packId}?step=${next}`);
    return actionOk(ok);
  };
  switch (intent) {
    case 'basics': {
      const parsed = packBasicsSchema.omit({ id: true }).safeParse(typed);
      if (!parsed.success) return invalid(fieldErrors(parsed.error.issues));
      return after(await updateDraftAsOperator(db, operator, packId, parsed.data), '基本情報を保存しました。', 'sale');
    }
    case 'sale': {
      const { problems, value } = saleFrom(form);
      const parsed = packSaleSchema.safeParse(value);
      if (Object.keys(problems).length || !parsed.success)
        return invalid({ ...(parsed.success ? {} : fieldErrors(parsed.error.issues)), ...problems });
      return after(await updateDraftAsOperator(db, operator, packId, parsed.data), '販売設定を保存しました。', 'tiers');
    }
    case 'tiers': {
      const { rows, indexes } = tierRowsFrom(form);
      const parsed = packTiersSchema.safeParse(rows);
      if (!parsed.success) {
        const fields: Record<string, string> = {};
        for (const issue of parsed.error.issues) {
          const [row, ...rest] = issue.path;
          const key = typeof row === 'number' ? `tiers.${indexes[row]}.${rest.map(String).join('.')}` : '_';
          fields[key] ??= issue.message;
        }
        return invalid(fields);
      }
      return after(await setDraftTiersAsOperator(db, operator, packId, parsed.data as TierRow[]), '賞を保存しました。');
    }
    case 'pack-image':
    case 'tier-image':
      return uploadDraftImage(shop, operator, packId, intent, form);
    case 'publish': {
      const current = await packForEditor(db, packId);
      if (!current) throw data({ notFound: true }, { status: 404 });
      if (current.pack.status !== 'draft') return refused(refuse('ALREADY_PUBLISHED', { gachaId: packId }));
      const checks = await prePublishChecks(db, packId, {
        forbiddenWords: config.PACK_FORBIDDEN_WORDS,
        imageExists: (p) => siteImageExists(mediaStoreOf(shop.services), publicDirs(), p),
        certifiedPrizeMinCoins: config.CERTIFIED_PRIZE_MIN_COINS,
      });
      if (!checks) throw data({ notFound: true }, { status: 404 });
      const failing = checks.filter((c) => !c.ok);
      // The labels, then the first problems in the checks' own words (what to fix, not only where).
      const details = failing.flatMap((c) => c.problems).slice(0, 5);
      if (failing.length)
        return actionRefused(
          `公開前チェックを通っていない項目があります: ${failing.map((c) => c.label).join('、')}${details.length ? `（${details.join(' ')}）` : ''}`,
          { status: 422 },
        );
      // A negative projected margin is published only when the confirmation's box was ticked; the
      // figures and the acknowledgement go into the audit entry (issue 28 item 4).
      const numbers = packNumbers(current.definition, {
        paymentFeePercent: config.PAYMENT_FEE_PERCENT,
        shippingCostPerPrizeYen: config.SHIPPING_COST_PER_PRIZE_YEN,
      });
      const acknowledged = text(form, 'acknowledgeNegativeMargin') === 'on';
      if (numbers.margin.marginYen < 0 && !acknowledged)
        return actionRefused(
          `予想利益がマイナス（−¥${(-numbers.margin.marginYen).toLocaleString('ja-JP')}）です。公開するには、公開の確認で「予想利益がマイナスであることを確認しました」にチェックしてください。`,
          { status: 422 },
        );
      const published = await publishPackAsOperator(
        db,
        operator,
        packId,
        {
          marginYen: numbers.margin.marginYen,
          marginRate: numbers.margin.marginRate,
          returnRate: numbers.returnRate,
          negativeMarginAcknowledged: numbers.margin.marginYen < 0 && acknowledged,
        },
        {
          certifiedPrizeMinCoins: config.CERTIFIED_PRIZE_MIN_COINS,
          beacon: shop.services.beacon?.publishTerms ?? null,
        },
      );
      if (!published.ok) return refused(published);
      return actionOk(
        published.value.status === 'scheduled'
          ? `公開を予約しました（${published.value.totalLots.toLocaleString('ja-JP')}口）。販売開始の時刻に販売中になります。`
          : `公開しました（${published.value.totalLots.toLocaleString('ja-JP')}口）。コミットメントが確定し、口の中身はもう変えられません。`,
      );
    }
    case 'end': {
      const ended = await endPackAsOperator(db, operator, packId);
      if (!ended.ok) return refused(ended);
      return actionOk('このパックの販売を終了しました。シードと抽選ログが公開されました。');
    }
    case 'copy': {
      const to = packBasicsSchema
        .pick({ id: true, title: true })
        .safeParse({ id: typed.copyId, title: typed.copyTitle });
      if (!to.success) return invalid(fieldErrors(to.error.issues, 'copy.'));
      const copied = await copyPackAsOperator(db, operator, packId, to.data);
      if (!copied.ok) return refused(copied, typed);
      throw redirect(`/admin/packs/${to.data.id}?step=basics`);
    }
    default:
      return actionRefused('操作を選び直してください。');
  }
}
