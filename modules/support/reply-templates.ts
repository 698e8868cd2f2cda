// The desk's reply templates: listed, saved and deleted through runAdminAction ('inquiries:write').
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { runAdminAction, type Operator } from '#modules/admin';
import { isUuid, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { inquiryReplyTemplates } from './schema';
import { INQUIRY_LIMITS } from './words';
import { denied, type DeskOutcome } from './desk';

export interface ReplyTemplate {
  id: string;
  title: string;
  body: string;
  updatedAt: string;
}

export const replyTemplateSchema = z.object({
  title: z
    .string({ error: 'テンプレート名を入力してください。' })
    .trim()
    .min(1, 'テンプレート名を入力してください。')
    .max(INQUIRY_LIMITS.templateTitle, `テンプレート名は${INQUIRY_LIMITS.templateTitle}文字以内で入力してください。`),
  body: z
    .string({ error: '本文を入力してください。' })
    .trim()
    .min(1, '本文を入力してください。')
    .max(
      INQUIRY_LIMITS.templateBody,
      `本文は${INQUIRY_LIMITS.templateBody.toLocaleString('ja-JP')}文字以内で入力してください。`,
    ),
});

/** Every template, by title. Needs 'inquiries:read'. */
export async function listReplyTemplates(
  db: Database,
  operator: Operator,
): Promise<{ ok: true; templates: ReplyTemplate[] } | Refusal<string>> {
  if (!operator.permissions.has('inquiries:read')) return denied('inquiries:read');
  const rows = await db.select().from(inquiryReplyTemplates).orderBy(asc(inquiryReplyTemplates.title));
  return {
    ok: true,
    templates: rows.map((r) => ({ id: r.id, title: r.title, body: r.body, updatedAt: r.updatedAt.toISOString() })),
  };
}

/**
 * Creates a template, or changes one (`id`).
 * @example await saveReplyTemplate(db, operator, { title: '発送状況のご案内', body: '…' })
 */
export async function saveReplyTemplate(
  db: Database,
  operator: Operator,
  template: z.output<typeof replyTemplateSchema> & { id?: string },
  now = new Date(),
): DeskOutcome<{ id: string }> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    if (template.id) {
      const [before] = isUuid(template.id)
        ? await tx.select().from(inquiryReplyTemplates).where(eq(inquiryReplyTemplates.id, template.id)).for('update')
        : [];
      if (!before) throw new RefusalError(refuse('INQUIRY_TEMPLATE_NOT_FOUND', { templateId: template.id }));
      await tx
        .update(inquiryReplyTemplates)
        .set({ title: template.title, body: template.body, updatedAt: now })
        .where(eq(inquiryReplyTemplates.id, before.id));
      return {
        value: { id: before.id },
        audit: {
          action: 'inquiry_template.update',
          target: { type: 'inquiry_template', id: before.id },
          before: { title: before.title, body: before.body },
          after: { title: template.title, body: template.body },
        },
      };
    }
    const id = randomUUID();
    await tx
      .insert(inquiryReplyTemplates)
      .values({ id, title: template.title, body: template.body, createdAt: now, updatedAt: now });
    return {
      value: { id },
      audit: {
        action: 'inquiry_template.create',
        target: { type: 'inquiry_template', id },
        after: { title: template.title, body: template.body },
      },
    };
  });
}

/** @example await deleteReplyTemplate(db, operator, templateId) */
export async function deleteReplyTemplate(db: Database, operator: Operator, templateId: string): DeskOutcome<null> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    const [before] = isUuid(templateId)
      ? await tx.delete(inquiryReplyTemplates).where(eq(inquiryReplyTemplates.id, templateId)).returning()
      : [];
    if (!before) throw new RefusalError(refuse('INQUIRY_TEMPLATE_NOT_FOUND', { templateId }));
    return {
      value: null,
      audit: {
        action: 'inquiry_template.delete',
        target: { type: 'inquiry_template', id: before.id },
        before: { title: before.title, body: before.body },
      },
    };
  });
}
