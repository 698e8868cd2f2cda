// /admin/inquiries/templates: the reply templates operators insert into an answer (then edit):
// add, change and delete, each audited. Reading them needs inquiries:read, changing inquiries:write.
import { useEffect, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/templates';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { EmptyState } from '~/components/admin/ListPage';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { templatesAction, templatesLoader, type InquiryActionData } from '~/controllers/admin-inquiries.server';

export const handle = { title: '回答テンプレート' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return templatesLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return templatesAction(context.get(shopRequestContext), request);
}

const field = 'mt-1 block w-full rounded-lg border border-line bg-white px-3 text-sm';

export default function TemplatesPage({ loaderData }: Route.ComponentProps) {
  const { templates, editing, limits, canWrite } = loaderData;
  const answer = useActionData<InquiryActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [deleting, setDeleting] = useState<string | null>(null);
  const deletingTemplate = templates.find((t) => t.id === deleting);
  // The dialog closes once the deletion has answered (the answer shows above the list).
  useEffect(() => {
    if (answer?.form === 'delete') setDeleting(null);
  }, [answer]);

  return (
    <div className="max-w-4xl">
      <p className="text-sm">
        <Link to="/admin/inquiries" className="underline">
          お問い合わせ一覧に戻る
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">回答テンプレート</h1>
      <p className="mt-1 text-sm text-muted">
        お問い合わせへの回答画面で挿入して、お客様に合わせて書き換えてから送信します。
      </p>
      <ActionAnswer answer={answer} className="mt-4" />

      {canWrite ? (
        <section aria-labelledby="template-form" className="mt-4 rounded-2xl border border-line bg-white p-4">
          <h2 id="template-form" className="text-base font-bold">
            {editing ? `「${editing.title}」を編集` : 'テンプレートを追加'}
          </h2>
          <Form method="post" className="mt-3 grid gap-3" key={editing?.id ?? 'new'}>
            <input type="hidden" name="intent" value="save" />
            {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
            <label className="text-xs font-bold">
              テンプレート名
              <input
                name="title"
                required
                maxLength={limits.title}
                defaultValue={editing?.title ?? ''}
                className={`${field} min-h-11`}
              />
            </label>
            <label className="text-xs font-bold">
              本文
              <textarea
                name="body"
                required
                rows={8}
                maxLength={limits.body}
                defaultValue={editing?.body ?? ''}
                className={`${field} py-2 leading-relaxed`}
              />
            </label>
            <div className="flex gap-3">
              <Button type="submit" loading={busy('save')}>
                {editing ? '更新する' : '追加する'}
              </Button>
              {editing ? (
                <Link to="/admin/inquiries/templates" className="py-3 text-sm underline">
                  編集をやめる
                </Link>
              ) : null}
            </div>
          </Form>
        </section>
      ) : null}

      {templates.length === 0 ? (
        <EmptyState>テンプレートはまだありません。</EmptyState>
      ) : (
        <ul className="mt-4 grid gap-3">
          {templates.map((t) => (
            <li key={t.id} className="rounded-2xl border border-line bg-white p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-base font-bold">{t.title}</h2>
                <span className="text-xs text-muted">更新 {formatStaffDateTime(t.updatedAt)}</span>
              </div>
              <p className="mt-2 line-clamp-4 whitespace-pre-wrap text-sm text-muted">{t.body}</p>
              {canWrite ? (
                <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                  <Link to={`/admin/inquiries/templates?edit=${t.id}`} className="font-bold underline">
                    編集
                  </Link>
                  <button type="button" onClick={() => setDeleting(t.id)} className="text-danger underline">
                    削除
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {deletingTemplate ? (
        <ConfirmDialog
          title={`「${deletingTemplate.title}」を削除しますか？`}
          confirmLabel="削除する"
          confirmVariant="danger"
          hidden={{ intent: 'delete', id: deletingTemplate.id }}
          busy={busy('delete')}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
