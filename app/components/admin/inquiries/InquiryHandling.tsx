// The inquiry's handling: its status and assignee, and the internal note the inquirer never sees.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import type { InquiryActionData } from '~/controllers/admin-inquiries.server';
import { field, type BusyOn, type InquiryPage } from './answer';

type HandlingProps = {
  inquiry: InquiryPage['inquiry'];
  canWrite: boolean;
  answer: InquiryActionData | undefined;
  busy: BusyOn;
};

export function HandlingSection({
  inquiry: q,
  statuses,
  staff,
  canWrite,
  answer,
  busy,
}: HandlingProps & { statuses: InquiryPage['statuses']; staff: InquiryPage['staff'] }) {
  return (
    <section aria-labelledby="handling" className="rounded-2xl border border-line bg-white p-4 text-sm">
      <h2 id="handling" className="text-base font-bold">
        状態・担当者
      </h2>
      {canWrite ? (
        <Form method="post" className="mt-2 grid gap-3">
          <input type="hidden" name="intent" value="update" />
          <ActionAnswer answer={answer} form="update" />
          <label className="text-xs font-bold">
            状態
            <select name="status" defaultValue={q.status} key={q.status} className={`${field} min-h-11`}>
              {statuses.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs font-bold">
            担当者
            <select
              name="assigneeId"
              defaultValue={q.assigneeId ?? ''}
              key={q.assigneeId ?? ''}
              className={`${field} min-h-11`}
            >
              <option value="">未割り当て</option>
              {staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <div>
            <Button type="submit" variant="secondary" loading={busy('update')}>
              保存
            </Button>
          </div>
        </Form>
      ) : (
        <p className="mt-2">
          {q.statusLabel}・担当 {q.assigneeName ?? '未割り当て'}
        </p>
      )}
    </section>
  );
}

export function InternalNote({
  inquiry: q,
  limits,
  canWrite,
  answer,
  busy,
}: HandlingProps & { limits: InquiryPage['limits'] }) {
  return (
    <section aria-labelledby="note" className="rounded-2xl border border-line bg-white p-4 text-sm">
      <h2 id="note" className="text-base font-bold">
        社内メモ
      </h2>
      <p className="mt-1 text-xs text-muted">お客様には表示されません。</p>
      {canWrite ? (
        <Form method="post" className="mt-2 grid gap-2">
          <input type="hidden" name="intent" value="note" />
          <ActionAnswer answer={answer} form="note" />
          <label htmlFor="internal-note" className="sr-only">
            社内メモ
          </label>
          <textarea
            id="internal-note"
            name="note"
            rows={4}
            maxLength={limits.note}
            defaultValue={q.internalNote ?? ''}
            key={q.internalNote ?? ''}
            className={`${field} py-2`}
          />
          <div>
            <Button type="submit" variant="secondary" loading={busy('note')}>
              メモを保存
            </Button>
          </div>
        </Form>
      ) : (
        <p className="mt-2 whitespace-pre-wrap">{q.internalNote ?? '（なし）'}</p>
      )}
    </section>
  );
}
