// The fraud signals page (/admin/signals, docs/decisions/029): the list (signals:read) with each
// signal's evidence in Japanese and the members it names, and the decision (clear, hold, ban;
// members:write) that the risk module records with its audit entries in one transaction. The signals
// themselves are computed by the job risk.signals, never here.
import { data } from 'react-router';
import { supportRulesOf, type ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { memberTagsFor } from '~/controllers/member-tags.server';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import type { Refusal } from '#modules/kernel';
import type { Operator } from '#modules/admin';
import { memberListingsOf } from '#modules/identity';
import {
  SIGNAL_KIND_LABELS,
  SIGNAL_STATUS_LABELS,
  decideSignalAsOperator,
  describeSignal,
  listSignals,
  signalDecisionSchema,
  signalFilterSchema,
  signalKinds,
  signalStatuses,
  type SignalFilter,
} from '#modules/risk';

export const SIGNALS_PAGE = 50;

/** What a decision answers: a line for the operator, or the refusal; `form` is the signal's id ('page' for none). */
export type SignalActionData = AdminActionResult;

/** The signals of a filter with everything the page shows (labels come with the data). */
export async function signalRows(
  shop: ShopRequest,
  operator: Operator,
  filter: SignalFilter & { memberId?: string },
  pageSize: number,
) {
  const db = shop.services.db;
  const { items, nextBefore } = await listSignals(db, filter, pageSize);
  const described = items.map((s) => ({ signal: s, words: describeSignal(s) }));
  const named = described.flatMap(({ signal, words }) => [signal.memberId, ...words.others]);
  const [listings, tags] = await Promise.all([memberListingsOf(db, named), memberTagsFor(db, operator, named)]);
  const who = (id: string) => ({ id, tag: tags[id], email: listings.get(id)?.email ?? null });
  return {
    nextBefore,
    items: described.map(({ signal, words }) => ({
      id: signal.id,
      kind: signal.kind,
      kindLabel: SIGNAL_KIND_LABELS[signal.kind],
      status: signal.status,
      statusLabel: SIGNAL_STATUS_LABELS[signal.status],
      member: who(signal.memberId),
      text: words.text,
      detail: words.detail,
      others: words.others.map(who),
      firstSeen: signal.firstSeen,
      lastSeen: signal.lastSeen,
      decidedLabel: signal.decidedLabel,
      decidedAt: signal.decidedAt,
      decisionNote: signal.decisionNote,
    })),
  };
}

export async function signalsLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'signals:read');
  const url = new URL(request.url);
  const parsed = signalFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  const filter: SignalFilter = parsed.success ? parsed.data : { status: 'open' };
  // The default view: what waits for a decision.
  if (parsed.success && !url.searchParams.has('status')) filter.status = 'open';
  const { items, nextBefore } = await signalRows(shop, operator, filter, SIGNALS_PAGE);
  const next = new URLSearchParams(url.searchParams);
  if (nextBefore) next.set('before', String(nextBefore));
  const body = {
    filter: { kind: filter.kind ?? '', status: filter.status ?? '' },
    error: parsed.success ? null : (parsed.error.issues[0]?.message ?? '絞り込みの条件が正しくありません。'),
    kinds: signalKinds.map((k) => ({ id: k, label: SIGNAL_KIND_LABELS[k] })),
    statuses: signalStatuses.map((s) => ({ id: s, label: SIGNAL_STATUS_LABELS[s] })),
    canDecide: operator.permissions.has('members:write'),
    items,
    nextHref: nextBefore ? `?${next.toString()}` : null,
  };
  return parsed.success ? body : data(body, { status: 400 });
}

const badInput = (message: string, signal = 'page') => actionRefused(message, { form: signal });

const DONE: Record<'clear' | 'hold' | 'ban', string> = {
  clear: '「問題なし」としました。',
  hold: '会員の購入・発送を停止しました。',
  ban: '会員を利用停止にしました（すべての端末からログアウトしました）。',
};

export async function signalsAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'signals:read');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const idText = form.get('id');
  const id = typeof idText === 'string' && /^\d{1,15}$/.test(idText) ? Number(idText) : null;
  if (!id) return badInput('判断するシグナルを一覧から選んでください。');
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const parsed = signalDecisionSchema.safeParse({
    decision: text('decision'),
    note: text('note'),
    until: text('until'),
    category: text('category') || undefined,
  });
  if (!parsed.success) return badInput(parsed.error.issues[0]?.message ?? '入力を確認してください。', String(id));
  const done = await decideSignalAsOperator(
    shop.services.db,
    operator,
    id,
    parsed.data,
    supportRulesOf(shop.services).site,
  );
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    return actionRefused(described.message, { form: String(id), status: described.status });
  }
  return actionOk(DONE[parsed.data.decision], { form: String(id) });
}
