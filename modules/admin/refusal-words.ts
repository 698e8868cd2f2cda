// The operators' refusal words (staff, member console, mails with presents): status and Japanese message.
import { digits, type RefusalWords } from '#modules/kernel';
import type { AdminRefusalCode } from './audit';
import { PERMISSION_LABELS, type AdminPermission } from './permissions';
import type { MemberConsoleRefusalCode } from './members';
import type { MailSendRefusalCode } from './mail-sends';

export const ADMIN_REFUSAL_WORDS: RefusalWords<AdminRefusalCode> = {
  PERMISSION_DENIED: { status: 403, message: 'この操作を行う権限がありません。管理者に権限を依頼してください。' },
  STAFF_NOT_FOUND: { status: 404, message: 'そのスタッフは見つかりません。' },
  STAFF_LAST_ADMIN: {
    status: 409,
    message: '最後の管理者は外せません。先に別の管理者を任命してください。',
  },
  STAFF_SELF_CHANGE: { status: 409, message: '自分自身の役割や権限は変更できません。別の管理者に依頼してください。' },
  STAFF_ALREADY: { status: 409, message: 'このアカウントはすでにスタッフです。' },
  STAFF_INVITATION_INVALID: {
    status: 410,
    message: 'この招待は無効です（使用済み・取り消し済み・期限切れのいずれか）。管理者に再度招待を依頼してください。',
  },
  STAFF_INVITATION_EMAIL_MISMATCH: {
    status: 403,
    message: (d) =>
      `この招待は別のメールアドレス${d.email ? `（${String(d.email)}）` : ''}宛てです。そのアドレスの会員としてログインしてください。`,
  },
  STAFF_INVITATION_EMAIL_UNVERIFIED: {
    status: 403,
    message: 'メールアドレスの確認が済んでいません。確認メールのリンクを開いてから、もう一度お試しください。',
  },
  STAFF_GRANT_NOT_HELD: {
    status: 403,
    message: (d) =>
      `ご自身が持っていない権限は付与できません${permissionList(d.permissions)}。必要なら管理者に依頼してください。`,
  },
  STAFF_ADMIN_ROLE_NOT_HELD: {
    status: 403,
    message: '管理者の招待・任命・変更・解除は、役割が「管理者」のスタッフだけが申請できます。',
  },
  STAFF_TARGET_HOLDS_MORE: {
    status: 403,
    message: (d) =>
      `ご自身が持っていない権限${permissionList(d.permissions)}を持つスタッフ（または招待）は、変更・解除・取り消しできません。管理者に依頼してください。`,
  },
  STAFF_REQUEST_PENDING: {
    status: 409,
    message: 'この相手の管理者の変更はすでに申請され、承認待ちです。承認待ち一覧をご確認ください。',
  },
  STAFF_REQUEST_NOT_FOUND: { status: 404, message: 'その管理者の変更の申請は見つかりません。' },
  STAFF_REQUEST_NOT_PENDING: {
    status: 409,
    message: (d) =>
      d.status === 'applied'
        ? 'この申請はすでに承認され、反映済みです。'
        : d.status === 'rejected'
          ? 'この申請はすでに却下されています。'
          : 'この申請はすでに処理されています。',
  },
  STAFF_REQUEST_SELF_APPROVAL: {
    status: 403,
    message: '自分が申請した管理者の変更は承認・却下できません。別の管理者に依頼してください。',
  },
  STAFF_REQUEST_APPROVER_NOT_ADMIN: {
    status: 403,
    message: '管理者の変更の承認・却下は、役割が「管理者」のスタッフだけが行えます。',
  },
  STAFF_REQUEST_OWN_ACCESS: {
    status: 403,
    message: '自分自身の役割に関する申請は承認・却下できません。別の管理者に依頼してください。',
  },
  STAFF_REQUEST_OUTDATED: {
    status: 409,
    message: '申請のあとに相手の役割が変わったため、反映できません。この申請を却下し、必要なら申請し直してください。',
  },
};

/** The permissions named in a refusal, in the staff page's words: 「（コインの付与、注文の返金）」. */
const permissionList = (permissions: unknown) =>
  Array.isArray(permissions) && permissions.length
    ? `（${permissions.map((p) => PERMISSION_LABELS[p as AdminPermission] ?? String(p)).join('、')}）`
    : '';

const coinKindName = (kind: unknown) => (kind === 'paid' ? '有償コイン' : '無償コイン');

export const MEMBER_CONSOLE_REFUSAL_WORDS: RefusalWords<MemberConsoleRefusalCode> = {
  MEMBER_NOT_FOUND: { status: 404, message: 'その会員は見つかりません。' },
  MEMBER_DELETED: { status: 409, message: 'この会員は退会済みのため、変更できません。' },
  RESTRICTION_NOT_FOUND: { status: 404, message: 'この会員には、対象となる利用制限がありません。' },
  APPEAL_NOT_OPEN: {
    status: 409,
    message: 'この利用制限には、判断を待っている異議申し立てがありません（判断済みの結果は変更できません）。',
  },
  APPEAL_SAME_OPERATOR: {
    status: 403,
    message: 'この利用制限を行ったスタッフは、その異議申し立てを判断できません。別のスタッフに依頼してください。',
  },
  MEMBER_SELF_ACTION: {
    status: 409,
    message: '自分自身のアカウントにはこの操作を行えません。別のスタッフに依頼してください。',
  },
  MEMBER_STAFF_PROTECTED: {
    status: 403,
    message: 'スタッフ・管理者のアカウントに対するこの操作は、管理者だけが行えます。',
  },
  ADJUSTMENT_NOT_FOUND: { status: 404, message: 'そのコイン調整の申請は見つかりません。' },
  ADJUSTMENT_NOT_PENDING: {
    status: 409,
    message: (d) =>
      d.status === 'applied'
        ? 'このコイン調整はすでに承認され、反映済みです。'
        : d.status === 'rejected'
          ? 'このコイン調整はすでに却下されています。'
          : 'このコイン調整はすでに処理されています。',
  },
  ADJUSTMENT_SELF_APPROVAL: {
    status: 403,
    message: '自分が申請したコイン調整は承認・却下できません。別の管理者に依頼してください。',
  },
  ADJUSTMENT_APPROVER_NOT_ADMIN: {
    status: 403,
    message: 'コイン調整の承認・却下は、役割が「管理者」のスタッフだけが行えます。',
  },
  ADJUSTMENT_KEY_REUSED: {
    status: 409,
    message: 'この調整フォームはすでに別の内容で送信されています。ページを読み込み直してからやり直してください。',
  },
  ADJUSTMENT_EXCEEDS_BALANCE: {
    status: 422,
    message: (d) =>
      `${coinKindName(d.kind)}の残高（${digits(d.balance)}枚）を超えて減らすことはできません（減らす枚数 ${digits(d.amount)}枚）。残高がマイナスになる調整は行えません。`,
  },
};

// Operators' mails with presents (decision 052).
export const MAIL_SEND_REFUSAL_WORDS: RefusalWords<MailSendRefusalCode> = {
  MAIL_PRESENT_OVER_CAP: {
    status: 422,
    message: (d) =>
      `プレゼントは1人あたり${digits(d.cap)}コインまでです（入力: ${digits(d.coins)}コイン）。枚数を減らしてください。`,
  },
  MAIL_CONFIRMATION_STALE: {
    status: 409,
    message: (d) =>
      `確認したときから送り先・プレゼントが変わりました（送り先 ${digits(d.confirmedRecipients)}人 → ${digits(d.recipients)}人、最大 ${digits(d.totalCoins)}コイン）。まだ送っていません。内容を確かめて、もう一度確認してください。`,
  },
  MAIL_REQUEST_NOT_FOUND: { status: 404, message: 'その配信の承認申請は見つかりません。' },
  MAIL_REQUEST_NOT_PENDING: {
    status: 409,
    message: (d) =>
      d.status === 'sent'
        ? 'この配信はすでに承認され、送信済みです。'
        : d.status === 'rejected'
          ? 'この配信はすでに却下されています。'
          : 'この配信はすでに処理されています。',
  },
  MAIL_REQUEST_SELF_APPROVAL: {
    status: 403,
    message: '自分が申請した配信は承認・却下できません。別の管理者に依頼してください。',
  },
  MAIL_REQUEST_APPROVER_NOT_ADMIN: {
    status: 403,
    message: 'プレゼント付き配信の承認・却下は、役割が「管理者」のスタッフだけが行えます。',
  },
  MAIL_REQUEST_KEY_REUSED: {
    status: 409,
    message: 'このメールはすでに送信（または承認申請）されています。送ったメールの一覧を確かめてください。',
  },
};
