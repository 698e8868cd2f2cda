// The approvals page's section for operators' mails whose present costs more than
// MAIL_PRESENT_APPROVAL_THRESHOLD_COINS (decision 052): the pending ones with their recipients counted now,
// and the approve / reject actions (only an admin other than the requester; approving sends, once).
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { mailPresentRules, segmentText } from '~/controllers/admin-mail.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { countMailRecipients } from '#server/context';
import { approveMailRequest, listPendingMailRequests, rejectMailRequest } from '#modules/admin';
import { jstText, type Refusal } from '#modules/kernel';
import { listAllGenres } from '#modules/gacha';

const PENDING_SHOWN = 100;
const n = (value: number) => value.toLocaleString('ja-JP');

/** What the mail section's forms answer (`form` is the request's id, so the answer shows beside it). */
export type MailApprovalActionData = AdminActionResult;

/** The intents of the mail section (the approvals page routes them here). */
export const isMailApprovalIntent = (intent: unknown) => intent === 'mail-approve' || intent === 'mail-reject';

/**
 * The pending mails for the approvals page, each with its recipients counted now; null when the operator
 * may not see mails (no `mail:write`).
 * @example const mail = await mailApprovalsLoader(shop, request)
 */
export async function mailApprovalsLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request);
  if (!operator.permissions.has('mail:write')) return null;
  const { db, config } = shop.services;
  const [pending, genres] = await Promise.all([listPendingMailRequests(db, PENDING_SHOWN), listAllGenres(db)]);
  const genreNames = new Map(genres.map((g) => [g.id, g.name]));
  const now = new Date();
  const items = [];
  for (const r of pending) {
    const recipientsNow = await countMailRecipients(db, r.to, now);
    items.push({
      id: r.id,
      subject: r.subject,
      toText:
        r.to.audience === 'personal' ? `個別: ${r.to.memberId}` : `お知らせ: ${segmentText(r.to.segment, genreNames)}`,
      whenText: r.sendAt > now ? `${jstText(r.sendAt)}に予約` : '承認したらすぐに送信',
      coinsPerMember: r.coinsPerMember,
      requestedRecipients: r.recipients,
      requestedTotal: r.totalCoins,
      recipientsNow,
      totalNow: recipientsNow * r.coinsPerMember,
      requestedLabel: r.requestedLabel,
      requestedAt: r.requestedAt.toISOString(),
      mine: r.requestedBy !== null && r.requestedBy === operator.memberId,
    });
  }
  return {
    canDecide: operator.role === 'admin',
    threshold: config.MAIL_PRESENT_APPROVAL_THRESHOLD_COINS,
    items,
  };
}

/**
 * Approves (sends) or rejects a pending mail. The approval carries the figures the approver was shown.
 * @example return mailApprovalsAction(shop, request, form)
 */
export async function mailApprovalsAction(shop: ShopRequest, request: Request, form: FormData) {
  const operator = await requireOperator(shop, request, 'mail:write');
  const id = form.get('id');
  if (typeof id !== 'string' || !id)
    return actionRefused('承認・却下する配信を一覧から選んでください。', { form: 'page' });
  const refused = (r: Refusal<string>) => {
    const described = describeRefusal(r as Refusal<RefusalCode>);
    return actionRefused(described.message, { form: id, status: described.status });
  };
  const { db, config } = shop.services;
  if (form.get('intent') === 'mail-approve') {
    const whole = (name: string) => {
      const v = Number(form.get(name));
      return Number.isSafeInteger(v) && v >= 0 ? v : -1;
    };
    const done = await approveMailRequest(
      db,
      operator,
      id,
      { recipients: whole('confirmedRecipients'), coinsPerMember: whole('confirmedCoins') },
      mailPresentRules(config),
      countMailRecipients,
    );
    if (!done.ok) return refused(done);
    return actionOk(
      `承認し、メール #${done.value.mailId} を送信しました（最大 ${n(done.value.totalCoins)}コインの申請）。`,
      { form: id },
    );
  }
  const note = form.get('note');
  if (typeof note === 'string' && note.trim().length > 200)
    return actionRefused('却下の理由は200文字以内で入力してください。', { form: id });
  const done = await rejectMailRequest(db, operator, id, typeof note === 'string' ? note : '');
  if (!done.ok) return refused(done);
  return actionOk('却下しました。メールは送られていません。', { form: id });
}
