// The content editor's publish section: publish, unpublish, book a publication, cancel the booking.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { inputClass } from '~/components/admin/fields';
import type { ContentActionData } from '~/controllers/admin-content.server';
import { ContentQuestionDialog, useContentQuestion } from './ContentQuestion';
import { label, type EditorPage } from './form';

export function PublishPanel({
  doc,
  answer,
  busy,
}: {
  doc: EditorPage['document'];
  answer: ContentActionData | undefined;
  busy: (intent: string) => boolean;
}) {
  const [asking, ask] = useContentQuestion();
  return (
    <section aria-labelledby="publish-title" className="mt-6 rounded-2xl border border-line bg-white p-5">
      <h2 id="publish-title" className="text-lg font-bold">
        公開
      </h2>
      <ActionAnswer answer={answer} form="actions" />
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <Button
          loading={busy('publish')}
          onClick={() =>
            ask({
              title: `版${doc.currentVersion}を公開しますか？`,
              detail: 'サイトにすぐ表示されます。',
              confirmLabel: '公開する',
              hidden: { intent: 'publish', version: doc.currentVersion },
            })
          }
        >
          版{doc.currentVersion}を公開する
        </Button>
        {doc.publishedAt ? (
          <Button
            variant="danger"
            loading={busy('unpublish')}
            onClick={() =>
              ask({
                title: '非公開にしますか？',
                detail: 'サイトに表示されなくなります。',
                confirmLabel: '非公開にする',
                danger: true,
                hidden: { intent: 'unpublish' },
              })
            }
          >
            非公開にする
          </Button>
        ) : null}
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="schedule" />
          <input type="hidden" name="version" value={doc.currentVersion} />
          <label className={label}>
            版{doc.currentVersion}の公開を予約（日本時間）
            <input type="datetime-local" name="at" required className={inputClass} />
          </label>
          <Button type="submit" variant="secondary" loading={busy('schedule')}>
            予約する
          </Button>
        </Form>
        {doc.scheduledAt ? (
          <Button
            variant="plain"
            loading={busy('cancel-schedule')}
            onClick={() =>
              ask({
                title: '公開の予約を取り消しますか？',
                confirmLabel: '予約を取り消す',
                danger: true,
                hidden: { intent: 'cancel-schedule' },
              })
            }
          >
            予約を取り消す
          </Button>
        ) : null}
      </div>
      <ContentQuestionDialog asking={asking} busy={busy} onCancel={() => ask(null)} />
    </section>
  );
}
