// The audit log: every admin action runs through runAdminAction, which checks the permission and
// writes the entry in the same transaction as the change (a refused or failed action leaves neither).
// Reading it (the viewer) is listAuditEntries, filtered and paged newest first.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { ADMIN_PERMISSIONS, type AdminPermission } from './permissions';
import { adminAuditLog } from './schema';

export const ADMIN_REFUSAL_CODES = [
  'PERMISSION_DENIED',
  'STAFF_NOT_FOUND',
  'STAFF_LAST_ADMIN',
  'STAFF_SELF_CHANGE',
  'STAFF_ALREADY',
  'STAFF_INVITATION_INVALID',
  'STAFF_INVITATION_EMAIL_MISMATCH',
  'STAFF_INVITATION_EMAIL_UNVERIFIED',
  'STAFF_GRANT_NOT_HELD',
  'STAFF_ADMIN_ROLE_NOT_HELD',
  'STAFF_TARGET_HOLDS_MORE',
  'STAFF_REQUEST_PENDING',
  'STAFF_REQUEST_NOT_FOUND',
  'STAFF_REQUEST_NOT_PENDING',
  'STAFF_REQUEST_SELF_APPROVAL',
  'STAFF_REQUEST_APPROVER_NOT_ADMIN',
  'STAFF_REQUEST_OWN_ACCESS',
  'STAFF_REQUEST_OUTDATED',
] as const;
export type AdminRefusalCode = (typeof ADMIN_REFUSAL_CODES)[number];

/**
 * Who acts in the admin area: a staff member (from their session) or the operators' command line.
 * Built once per request by `operatorOf` / `commandLineOperator`; the permissions are the role's.
 */
export interface Operator {
  /** The member acting; null for the command line. */
  memberId: string | null;
  /** The staff member's email, or `cli:<user>@<host>`. */
  label: string;
  role: 'admin' | 'staff' | 'cli';
  permissions: ReadonlySet<AdminPermission>;
  requestId: string | null;
  address: string | null;
}

/**
 * The command line acts with every permission: whoever runs it already holds the database's keys.
 * @example const operator = commandLineOperator()
 */
export function commandLineOperator(): Operator {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    // A container without a passwd entry for the uid: the host name still says where it ran.
  }
  return {
    memberId: null,
    label: `cli:${user}@${os.hostname()}`,
    role: 'cli',
    permissions: new Set(ADMIN_PERMISSIONS),
    requestId: null,
    address: null,
  };
}

/** One entry of an action: what it did to which target, with the target before and after (JSON). */
export interface AuditRecord {
  action: string;
  target: { type: string; id: string | null };
  before?: unknown;
  after?: unknown;
}

/** What an admin action's body answers: its value and the entries to record with it. */
export interface AdminActionResult<T> {
  value: T;
  audit: AuditRecord | readonly AuditRecord[];
}

/**
 * What a refused action records (decision 050): the action's name (the entry is `<action>.refused`),
 * its target, and what was asked. Without it only a missing permission is recorded (as
 * `admin.action.refused`, target the permission); the action's own refusals record nothing.
 */
export interface RefusalAudit {
  action: string;
  target: AuditRecord['target'];
  attempt?: unknown;
}

/**
 * Runs an admin action: refuses without the permission, else runs `body` in a transaction and
 * records its audit entries in that same transaction. A RefusalError thrown by `body` rolls the
 * change back and is answered as the refusal. A missing permission is always recorded, and with
 * `refusal` every refusal, as `<action>.refused` with its code and details, in a transaction of its
 * own (the action's own was rolled back).
 * @example await runAdminAction(db, operator, 'shipping:write', async (tx) => ({ value, audit: { action: 'shipping.prepare', target: { type: 'shipping_request', id } } }))
 */
export async function runAdminAction<T>(
  db: Database,
  operator: Operator,
  permission: AdminPermission,
  body: (tx: Database) => Promise<AdminActionResult<T>>,
  refusal?: RefusalAudit,
): Promise<{ ok: true; value: T } | Refusal<string>> {
  if (!operator.permissions.has(permission))
    return recordRefusal(
      db,
      operator,
      permission,
      refusal ?? { action: 'admin.action', target: { type: 'permission', id: permission } },
      refuse('PERMISSION_DENIED', { permission }),
    );
  try {
    const value = await db.transaction(async (tx) => {
      const result = await body(tx);
      await recordAudit(tx, operator, permission, result.audit);
      return result.value;
    });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof RefusalError) return recordRefusal(db, operator, permission, refusal, error.refusal);
    throw error;
  }
}

/**
 * Records a refusal decided outside runAdminAction (a page's own permission check), in its own
 * transaction, as `<action>.refused`; answers the refusal.
 * @example await recordRefusal(db, operator, 'staff:write', { action: 'staff.invite', target }, refuse('PERMISSION_DENIED', { permission: 'staff:write' }))
 */
export async function recordRefusal(
  db: Database,
  operator: Operator,
  permission: AdminPermission,
  refusal: RefusalAudit | undefined,
  refused: Refusal<string>,
): Promise<Refusal<string>> {
  if (!refusal) return refused;
  await db.transaction((tx) =>
    recordAudit(tx, operator, permission, {
      action: `${refusal.action}.refused`,
      target: refusal.target,
      after: { code: refused.code, details: refused.details ?? {}, attempt: refusal.attempt ?? null },
    }),
  );
  return refused;
}

/**
 * What the audit log keeps of staff's free text written to or about a member (an answer, a note, a
 * reason): its SHA-256 (hex, of the UTF-8 text) and its length in characters (code points), never the
 * text. The text lives only in its own row, which 退会 redacts; the log is append-only and could not
 * (decision 053). The digest proves which text was written and when without keeping a quote of anyone.
 */
export interface AuditTextDigest {
  textSha256: string;
  textLength: number;
}

/**
 * The audit log's digest of a free text; null stays null (no text, e.g. a cleared note).
 * @example auditTextDigest('ご連絡ありがとうございます。') // { textSha256: 'a3f…', textLength: 14 }
 */
export function auditTextDigest(text: string): AuditTextDigest;
export function auditTextDigest(text: string | null | undefined): AuditTextDigest | null;
export function auditTextDigest(text: string | null | undefined): AuditTextDigest | null {
  if (text === null || text === undefined) return null;
  return { textSha256: createHash('sha256').update(text, 'utf8').digest('hex'), textLength: [...text].length };
}

/**
 * Whether a value of an entry's before/after is such a digest (the viewer shows 「本文（N文字）」 for it).
 * @example isAuditTextDigest(entry.after?.reply)
 */
export function isAuditTextDigest(value: unknown): value is AuditTextDigest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 2 &&
    typeof (value as AuditTextDigest).textSha256 === 'string' &&
    typeof (value as AuditTextDigest).textLength === 'number'
  );
}

/**
 * An entry's before/after for the viewer: every text digest becomes 「本文（N文字・SHA-256 xxxxxxxx）」
 * (the first 8 hex digits, enough to compare with the text's own row); everything else as stored.
 * @example auditValueForDisplay({ reply: { textSha256: 'a3f0…', textLength: 14 } }) // { reply: '本文（14文字・SHA-256 a3f0…）' }
 */
export function auditValueForDisplay(value: unknown): unknown {
  if (isAuditTextDigest(value)) return `本文（${value.textLength}文字・SHA-256 ${value.textSha256.slice(0, 8)}）`;
  if (Array.isArray(value)) return value.map(auditValueForDisplay);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, auditValueForDisplay(inner)]));
  return value;
}

/** JSON for the log: undefined becomes null, Dates ISO strings, bigints strings. */
function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}

/**
 * Writes audit entries in the caller's transaction (runAdminAction does; so may a read that must be
 * recorded, such as viewing a decrypted address).
 * @example await recordAudit(tx, operator, 'shipping:read', { action: 'address.view', target: { type: 'shipping_request', id } })
 */
export async function recordAudit(
  tx: Database,
  operator: Operator,
  permission: AdminPermission,
  records: AuditRecord | readonly AuditRecord[],
): Promise<void> {
  const list = Array.isArray(records) ? records : [records as AuditRecord];
  if (list.length === 0) return;
  await tx.insert(adminAuditLog).values(
    list.map((r) => ({
      actorId: operator.memberId,
      actorLabel: operator.label,
      permission,
      action: r.action,
      targetType: r.target.type,
      targetId: r.target.id,
      before: toJson(r.before),
      after: toJson(r.after),
      requestId: operator.requestId,
      address: operator.address,
    })),
  );
}

const dateField = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: '日付は 2026-11-24 の形で入力してください。' })
  .optional()
  .or(z.literal('').transform(() => undefined));

/** The viewer's filters (the page's query string and the API alike); dates are JST calendar days. */
export const auditFilterSchema = z.object({
  actor: z.string().trim().max(200).optional(),
  action: z.string().trim().max(100).optional(),
  targetType: z.string().trim().max(100).optional(),
  targetId: z.string().trim().max(200).optional(),
  from: dateField,
  to: dateField,
  /** The id of the last entry of the previous page (newest first). */
  before: z.coerce.number().int().positive().optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export interface AuditEntry {
  id: number;
  at: Date;
  actorId: string | null;
  actorLabel: string;
  permission: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  address: string | null;
}

/** The start of a JST calendar day as an instant. */
const jstDayStart = (day: string) => new Date(`${day}T00:00:00+09:00`);

/**
 * A page of the audit log, newest first, and the cursor of the next page (null at the end).
 * @example const { entries, nextBefore } = await listAuditEntries(db, { action: 'shipping.ship' }, 50)
 */
export async function listAuditEntries(
  db: Database,
  filter: AuditFilter,
  pageSize: number,
): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
  const where: SQL[] = [];
  if (filter.actor) {
    const like = `%${filter.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`(${adminAuditLog.actorLabel} ilike ${like} or ${adminAuditLog.actorId} = ${filter.actor})`);
  }
  if (filter.action)
    where.push(sql`${adminAuditLog.action} like ${`${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (filter.targetType) where.push(eq(adminAuditLog.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(adminAuditLog.targetId, filter.targetId));
  if (filter.from) where.push(gte(adminAuditLog.at, jstDayStart(filter.from)));
  if (filter.to) where.push(lt(adminAuditLog.at, new Date(jstDayStart(filter.to).getTime() + 86_400_000)));
  if (filter.before) where.push(lt(adminAuditLog.id, filter.before));
  const rows = await db
    .select()
    .from(adminAuditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(adminAuditLog.id))
    .limit(pageSize + 1);
  const entries = rows.slice(0, pageSize);
  return { entries, nextBefore: rows.length > pageSize ? (entries.at(-1)?.id ?? null) : null };
}
