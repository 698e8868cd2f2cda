// The content editor's publish section: publish, unpublish, book a publication, cancel the booking.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { FormAnswer, inputClass } from '~/components/admin/fields';
import type { ContentActionData } from '~/controllers/admin-content.server';
import { confirmFirst, label, type EditorPage } from './form';

export function PublishPanel({
  doc,
  answer,
  busy,
}: {
  doc: EditorPage['document'];
  answer: ContentActionData | undefined;
  busy: (intent: string) => boolean;
}) {
  return (
    <section aria-labelledby="publish-title" className="mt-6 rounded-2xl border border-line bg-white p-5">
      <h2 id="publish-title" className="text-lg font-bold">
        公開
      </h2>
      <FormAnswer answer={answer} form="actions" />
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <Form
          method="post"
          onSubmit={confirmFirst(`版${doc.currentVersion}を公開しますか？ サイトにすぐ表示されます。`)}
        >
          <input type="hidden" name="intent" value="publish" />
          <input type="hidden" name="version" value={doc.currentVersion} />
          <Button type="submit" loading={busy('publish')}>
            版{doc.currentVersion}を公開する
          </Button>
        </Form>
        {doc.publishedAt ? (
          <Form method="post" onSubmit={confirmFirst('非公開にしますか？ サイトに表示されなくなります。')}>
            <input type="hidden" name="intent" value="unpublish" />
            <Button type="submit" variant="danger" loading={busy('unpublish')}>
              非公開にする
            </Button>
          </Form>
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
          <Form method="post" onSubmit={confirmFirst('公開の予約を取り消しますか？')}>
            <input type="hidden" name="intent" value="cancel-schedule" />
            <Button type="submit" variant="plain" loading={busy('cancel-schedule')}>
              予約を取り消す
            </Button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
