// The answer form of an inquiry, with templates inserted where the cursor is (without scripts, through ?template=).
import { useRef } from 'react';
import { Form, Link } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import type { InquiryActionData } from '~/controllers/admin-inquiries.server';
import { field, type BusyOn, type InquiryPage } from './answer';

export function ReplyForm({
  email,
  templates,
  statuses,
  limits,
  draft,
  answer,
  busy,
}: {
  email: string;
  templates: InquiryPage['templates'];
  statuses: InquiryPage['statuses'];
  limits: InquiryPage['limits'];
  /** The answer's text: the saved draft, or what was sent when the answer was refused. */
  draft: string;
  answer: InquiryActionData | undefined;
  busy: BusyOn;
}) {
  const reply = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLSelectElement>(null);

  /** Puts the chosen template's text where the cursor is in the answer (the answer's text is kept). */
  const insertTemplate = (event: React.FormEvent<HTMLFormElement>) => {
    const template = templates.find((t) => t.id === picker.current?.value);
    const box = reply.current;
    if (!template || !box) return;
    event.preventDefault();
    const start = box.selectionStart ?? box.value.length;
    const end = box.selectionEnd ?? start;
    box.value = box.value.slice(0, start) + template.body + box.value.slice(end);
    box.focus();
    box.setSelectionRange(start + template.body.length, start + template.body.length);
  };
  return (
    <section aria-labelledby="reply" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="reply" className="text-base font-bold">
        回答する
      </h2>
      <p className="mt-1 text-xs text-muted">回答は {email} にメールでお送りし、監査ログに記録します。</p>
      {templates.length ? (
        <Form method="get" onSubmit={insertTemplate} className="mt-3 flex flex-wrap items-end gap-2">
          <label className="text-xs font-bold">
            テンプレート
            <select ref={picker} name="template" defaultValue="" className={`${field} min-h-11 w-72`}>
              <option value="" disabled>
                選んでください
              </option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.title}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary">
            テンプレートを挿入
          </Button>
        </Form>
      ) : (
        <p className="mt-2 text-xs text-muted">
          <Link to="/admin/inquiries/templates" className="underline">
            回答テンプレート
          </Link>
          を登録すると、ここから挿入できます。
        </p>
      )}
      <Form method="post" className="mt-3 grid gap-3">
        <input type="hidden" name="intent" value="reply" />
        {/* An answer of no form (the form could not be read) shows here. */}
        <ActionAnswer answer={answer && !answer.form ? { ...answer, form: 'reply' } : answer} form="reply" />
        <label className="text-xs font-bold">
          回答
          <textarea
            ref={reply}
            name="body"
            rows={10}
            required
            maxLength={limits.reply}
            defaultValue={draft}
            key={draft}
            className={`${field} py-2 leading-relaxed`}
          />
        </label>
        <div className="flex flex-wrap items-end gap-3">
          <label className="text-xs font-bold">
            回答後の状態
            <select name="status" defaultValue="waiting" className={`${field} min-h-11`}>
              {statuses.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" loading={busy('reply')}>
            回答を送信
          </Button>
        </div>
      </Form>
    </section>
  );
}
