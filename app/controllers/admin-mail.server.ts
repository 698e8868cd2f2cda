// /admin/mail: operators compose a broadcast (a segment) or a personal mail (member by id or email),
// with a markup body turned into rich text (links checked), an optional free-coin attachment and its
// deadline, sent now or scheduled (Japan time); they withdraw one and see read and claim counts. Every
// change goes through runAdminAction with 'mail:write' (audited in the same transaction). Before sending,
// a test send to oneself, and a confirmation of the recipients and the present's most cost (decision 052).
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { memberIdFromFilter } from '~/controllers/member-tags.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import {
  mailCostOf,
  runAdminAction,
  sendMailAsOperator,
  sendTestMailAsOperator,
  type MailPresentRules,
} from '#modules/admin';
import { countMailRecipients } from '#server/context';
import type { ShopConfig } from '#server/context';
import { jstText, parseJstDateTime, RefusalError, type Refusal } from '#modules/kernel';
import { richTextFromMarkup, type RichText } from '#modules/content';
import { findMemberByIdOrEmail } from '#modules/identity';
import { listAllGenres } from '#modules/gacha';
import { RANKS, rankName } from '#modules/progression';
import { cancelMail, isScheduled, listSentMails, type MailDraft, type MailSegment } from '#modules/mailbox';

export const MAIL_ADMIN_PATH = '/admin/mail';
const DAY_MS = 86_400_000;
import { MAIL_LIMITS, type MailConfirmationView } from '~/lib/admin-mail';

/** The body as members will see it (the preview button). */
interface MailPreview {
  subject: string;
  body: RichText;
}

/**
 * Done or refused, for the 'compose' or the 'cancel' form (a refusal because the figures changed brings
 * them again in `confirm`); or, before sending, the preview or the figures to confirm (the 確認 button),
 * neither done nor refused yet.
 */
export type MailAdminActionData =
  | AdminActionResult<{ confirm: MailConfirmationView; preview: undefined }>
  | { form: 'compose'; preview?: MailPreview; confirm?: MailConfirmationView; ok?: undefined; error?: undefined };

/** The present's rules from the settings. */
export const mailPresentRules = (
  config: Pick<ShopConfig, 'MAIL_PRESENT_MAX_COINS_PER_MEMBER' | 'MAIL_PRESENT_APPROVAL_THRESHOLD_COINS'>,
): MailPresentRules => ({
  maxCoinsPerMember: config.MAIL_PRESENT_MAX_COINS_PER_MEMBER,
  approvalThresholdCoins: config.MAIL_PRESENT_APPROVAL_THRESHOLD_COINS,
});

/** A segment in the operators' words. */
export function segmentText(segment: MailSegment | null, genres: Map<string, string>): string {
  if (!segment) return '全員';
  switch (segment.kind) {
    case 'all':
      return '全員';
    case 'rank':
      return `${rankName(segment.minRank)}以上（送信時のランク）`;
    case 'genre_buyers':
      return `${genres.get(segment.genreId) ?? segment.genreId}を引いたことがある会員`;
    case 'inactive':
      return `${segment.days}日以上ログイン・ガチャがない会員`;
  }
}

export async function mailAdminLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'mail:write');
  const { db } = shop.services;
  const [page, genres] = await Promise.all([listSentMails(db, { limit: 100 }), listAllGenres(db)]);
  const genreNames = new Map(genres.map((g) => [g.id, g.name]));
  const now = new Date();
  return {
    /** The form's key: a double submit of one confirmation sends once. */
    key: crypto.randomUUID(),
    maxCoinsPerMember: shop.services.config.MAIL_PRESENT_MAX_COINS_PER_MEMBER,
    genres: genres.map((g) => ({ id: g.id, name: g.name })),
    ranks: RANKS.filter((r) => r.rank > 0).map((r) => ({ rank: r.rank, name: r.name })),
    mails: page.items.map((m) => ({
      id: m.id,
      subject: m.subject,
      to: m.audience === 'personal' ? `個別: ${m.memberId}` : `お知らせ: ${segmentText(m.segment, genreNames)}`,
      attachment: m.attachmentCoins
        ? `${m.attachmentCoins.toLocaleString('ja-JP')}コイン${m.claimUntil ? `（${jstText(m.claimUntil)}まで）` : ''}`
        : '',
      sendAt: jstText(m.sendAt),
      state: m.canceledAt ? '取消済' : isScheduled(m, now) ? '予約' : '送信済',
      cancelable: !m.canceledAt,
      reads: m.reads,
      claims: m.claims,
      createdBy: m.createdBy ?? '',
    })),
  };
}

const fail = (form: 'compose' | 'cancel' | undefined, error: string, status: number) =>
  actionRefused(error, { form, status });

/** A whole number in [min, max] typed in a form, or null when blank; undefined when it is not one. */
function wholeNumber(text: string | undefined, min: number, max: number): number | null | undefined {
  const v = (text ?? '').trim().replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  if (v === '') return null;
  const n = Number(v);
  return /^\d+$/.test(v) && Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

type Draft = Omit<MailDraft, 'createdBy'>;

/** Reads the compose form; the Japanese reason when something is missing or wrong. */
async function draftOf(
  shop: ShopRequest,
  form: Record<string, string>,
  now: Date,
): Promise<Draft | { error: string; status: number }> {
  const bad = (error: string, status = 400) => ({ error, status });
  const subject = (form.subject ?? '').trim();
  if (subject === '') return bad('件名を入力してください。');
  if (subject.length > MAIL_LIMITS.subject) return bad(`件名は${MAIL_LIMITS.subject}文字以内にしてください。`);
  const markup = form.body ?? '';
  if (markup.length > MAIL_LIMITS.body)
    return bad(`本文は${MAIL_LIMITS.body.toLocaleString('ja-JP')}文字以内にしてください。`);
  const body = richTextFromMarkup(markup);
  if (!body.ok) return bad(body.message);
  if (body.value.length === 0) return bad('本文を入力してください。');

  let to: Draft['to'];
  if (form.audience === 'personal') {
    const who = (form.member ?? '').trim();
    if (who === '') return bad('送り先の会員ID またはメールアドレスを入力してください。');
    // 会員ID is the number the member reads on マイページ (the internal id works too).
    const member = await findMemberByIdOrEmail(shop.services.db, await memberIdFromFilter(shop.services.db, who));
    if (!member) return bad('その会員ID・メールアドレスの会員は見つかりません。', 404);
    to = { audience: 'personal', memberId: member.id };
  } else if (form.audience === 'broadcast') {
    let segment: MailSegment;
    switch (form.segment ?? 'all') {
      case 'all':
        segment = { kind: 'all' };
        break;
      case 'rank': {
        const minRank = wholeNumber(form.minRank, 1, RANKS.at(-1)!.rank);
        if (!minRank) return bad('対象のランクを選んでください。');
        segment = { kind: 'rank', minRank };
        break;
      }
      case 'genre_buyers': {
        const genres = await listAllGenres(shop.services.db);
        const genre = genres.find((g) => g.id === form.genreId);
        if (!genre) return bad('対象のジャンルを選んでください。');
        segment = { kind: 'genre_buyers', genreId: genre.id };
        break;
      }
      case 'inactive': {
        const days = wholeNumber(form.inactiveDays, 1, MAIL_LIMITS.inactiveDays);
        if (!days) return bad(`休眠の日数は1〜${MAIL_LIMITS.inactiveDays}の整数で入力してください。`);
        segment = { kind: 'inactive', days };
        break;
      }
      default:
        return bad('対象の会員を選び直してください。');
    }
    to = { audience: 'broadcast', segment };
  } else return bad('お知らせ（一斉）か個別メールかを選んでください。');

  let sendAt = now;
  if (form.timing === 'later') {
    const at = parseJstDateTime(form.sendAt ?? '');
    if (!at) return bad('予約の日時を入力してください（日本時間）。');
    if (at.getTime() <= now.getTime()) return bad('予約の日時は今より後にしてください。');
    sendAt = at;
  } else if (form.timing !== undefined && form.timing !== 'now') return bad('送信のタイミングを選び直してください。');

  const coins = wholeNumber(form.coins, 1, MAIL_LIMITS.coins);
  if (coins === undefined)
    return bad(`プレゼントのコインは1〜${MAIL_LIMITS.coins.toLocaleString('ja-JP')}の整数で入力してください。`);
  let attachment: Draft['attachment'] = null;
  if (coins !== null) {
    const typed = (form.claimUntil ?? '').trim();
    const claimUntil = typed === '' ? new Date(sendAt.getTime() + 30 * DAY_MS) : parseJstDateTime(typed);
    if (!claimUntil) return bad('受け取り期限の日時が正しくありません（日本時間）。');
    if (claimUntil.getTime() <= sendAt.getTime()) return bad('受け取り期限は送信日時より後にしてください。');
    attachment = { coins, claimUntil };
  }
  return { to, subject, body: body.value, attachment, sendAt };
}

export async function mailAdminAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'mail:write');
  const form = await readFormFields(request);
  if (!form) return fail(undefined, UNREADABLE_FORM_MESSAGE, 400);
  const { db } = shop.services;
  const refused = (formName: 'compose' | 'cancel', r: Refusal<string>) => {
    const described = describeRefusal(r as Refusal<RefusalCode>);
    return fail(formName, described.message, described.status);
  };

  if (form.intent === 'cancel') {
    const id = Number(form.id);
    if (!Number.isSafeInteger(id) || id < 1) return fail('cancel', '取り消すメールを選び直してください。', 400);
    const done = await runAdminAction(db, operator, 'mail:write', async (tx) => {
      const canceled = await cancelMail(tx, id);
      if (!canceled.ok) throw new RefusalError(canceled);
      return { value: id, audit: { action: 'mail.cancel', target: { type: 'mail', id: String(id) } } };
    });
    if (!done.ok) return refused('cancel', done);
    return actionOk(`メール #${id} を取り消しました。会員には表示されません。`, { form: 'cancel' });
  }

  const intents = ['send', 'preview', 'test', 'confirm'];
  if (!intents.includes(form.intent ?? '')) return fail('compose', '操作を選び直してください。', 400);
  const now = new Date();
  const draft = await draftOf(shop, form, now);
  if ('error' in draft) return fail('compose', draft.error, draft.status);
  if (form.intent === 'preview')
    return { form: 'compose', preview: { subject: draft.subject, body: draft.body } } satisfies MailAdminActionData;
  if (form.intent === 'test') {
    const sent = await sendTestMailAsOperator(db, operator, draft, now);
    if (!sent.ok) return refused('compose', sent);
    return actionOk(
      `テスト送信しました（メール #${sent.value.mailId}）。ご自分のメールボックスで表示を確かめてください。プレゼントのコインは付いていません。`,
      { form: 'compose' },
    );
  }

  const rules = mailPresentRules(shop.services.config);
  const genreNames = new Map((await listAllGenres(db)).map((g) => [g.id, g.name]));
  const confirmationOf = async (): Promise<MailConfirmationView | { error: string; status: number }> => {
    const recipients = await countMailRecipients(db, draft.to, now);
    const cost = mailCostOf(draft, recipients, rules);
    if ('code' in cost) {
      const described = describeRefusal(cost as Refusal<RefusalCode>);
      return { error: described.message, status: described.status };
    }
    return {
      ...cost,
      toText:
        draft.to.audience === 'personal'
          ? `個別: ${form.member?.trim() ?? draft.to.memberId}`
          : `お知らせ: ${segmentText(draft.to.segment, genreNames)}`,
      whenText: draft.sendAt > now ? `${jstText(draft.sendAt)}に予約` : 'すぐに送信',
      scheduled: draft.sendAt > now,
    };
  };
  if (form.intent === 'confirm') {
    const confirm = await confirmationOf();
    if ('error' in confirm) return fail('compose', confirm.error, confirm.status);
    return { form: 'compose', confirm } satisfies MailAdminActionData;
  }

  // 'send': the figures the confirmation showed travel with the form; the server counts again.
  const confirmed = {
    recipients: wholeNumber(form.confirmedRecipients, 0, Number.MAX_SAFE_INTEGER) ?? -1,
    coinsPerMember: wholeNumber(form.confirmedCoins, 0, Number.MAX_SAFE_INTEGER) ?? -1,
  };
  const key = (form.key ?? '').trim();
  if (!/^[\w-]{8,64}$/.test(key)) return fail('compose', 'ページを読み込み直してから、もう一度送信してください。', 400);
  const done = await sendMailAsOperator(db, operator, draft, confirmed, key, rules, countMailRecipients, now);
  if (!done.ok) {
    if (done.code === 'MAIL_CONFIRMATION_STALE') {
      const confirm = await confirmationOf();
      const described = describeRefusal(done as Refusal<RefusalCode>);
      return actionRefused<{ confirm: MailConfirmationView }>(described.message, {
        form: 'compose',
        ...('error' in confirm ? {} : { confirm }),
        status: described.status,
      });
    }
    return refused('compose', done);
  }
  const sentRequest = done.value.request;
  if (sentRequest.status === 'pending')
    return actionOk(
      `プレゼントの合計が${rules.approvalThresholdCoins.toLocaleString('ja-JP')}コインを超えるため、承認待ちにしました（最大 ${sentRequest.totalCoins.toLocaleString('ja-JP')}コイン）。別の管理者が「承認待ち」で承認すると送信されます。`,
      { form: 'compose' },
    );
  const when = draft.sendAt > now ? `${jstText(draft.sendAt)}に送信を予約しました` : '送信しました';
  return actionOk(`メール #${sentRequest.mailId} を${when}。`, { form: 'compose' });
}
