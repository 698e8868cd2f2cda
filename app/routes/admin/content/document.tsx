// /admin/content/:documentId: the editor of one page, special page or notice (docs/decisions/040).
// Fields, the rich text (TipTap, loaded in the browser only), slices (text, image, embed, table,
// button: added, moved and removed), a preview at phone and desktop size of the newest version, publish,
// unpublish, booked publication, and the version history with a line diff and rollback.
import { useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/document';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { DocumentFields } from '~/components/admin/content/DocumentFields';
import { PreviewPanel } from '~/components/admin/content/PreviewPanel';
import { PublishPanel } from '~/components/admin/content/PublishPanel';
import { RichTextField } from '~/components/admin/content/RichTextField';
import { SliceList } from '~/components/admin/content/SliceList';
import { VersionHistory } from '~/components/admin/content/VersionHistory';
import {
  contentEditorAction,
  contentEditorLoader,
  type ContentActionData,
  type EditorPayload,
} from '~/controllers/admin-content.server';

export const handle = { title: 'ページの編集' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return contentEditorLoader(context.get(shopRequestContext), request, params.documentId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return contentEditorAction(context.get(shopRequestContext), request, params.documentId);
}

export default function ContentEditor({ loaderData }: Route.ComponentProps) {
  const { document: doc, versions, diff, imageMaxMegabytes } = loaderData;
  const [payload, setPayload] = useState<EditorPayload>(loaderData.payload);
  const set = <K extends keyof EditorPayload>(key: K, value: EditorPayload[K]) =>
    setPayload((p) => ({ ...p, [key]: value }));
  const answer = useActionData<ContentActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const isNotice = doc.type === 'notice';

  return (
    <div className="max-w-6xl">
      <p className="text-sm">
        <Link to="/admin/content" className="underline">
          ページ・お知らせ
        </Link>
      </p>
      <h1 className="text-2xl font-black">{payload.title || '（無題）'}</h1>
      <p className="mt-1 text-sm">
        {doc.typeLabel}・<span className="font-bold">{doc.statusLabel}</span>・最新 版{doc.currentVersion}・公開中{' '}
        {doc.publishedVersion
          ? `版${doc.publishedVersion}（/${doc.publishedUid}、${doc.publishedAt ?? '非公開'}）`
          : 'なし'}
        {doc.scheduledAt ? `・予約 版${doc.scheduledVersion}（${doc.scheduledAt}）` : ''}
      </p>

      <section aria-labelledby="editor-title" className="mt-4 rounded-2xl border border-line bg-white p-5">
        <h2 id="editor-title" className="text-lg font-bold">
          内容
        </h2>
        <Form method="post" className="mt-3 grid gap-4">
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="version" value={doc.currentVersion} />
          <input type="hidden" name="payload" value={JSON.stringify(payload)} />
          <ActionAnswer answer={answer} form="editor" />
          <DocumentFields doc={doc} payload={payload} set={set} imageMaxMegabytes={imageMaxMegabytes} />
          <RichTextField
            id="body-editor"
            label="本文"
            html={loaderData.payload.bodyHtml}
            onChange={(html) => set('bodyHtml', html)}
          />

          {!isNotice ? <SliceList payload={payload} setPayload={setPayload} /> : null}
          <div>
            <Button type="submit" loading={busy('save')}>
              保存（新しい版）
            </Button>
          </div>
        </Form>
      </section>

      <PublishPanel doc={doc} answer={answer} busy={busy} />

      <PreviewPanel doc={doc} />

      <VersionHistory doc={doc} versions={versions} diff={diff} answer={answer} busy={busy} />
    </div>
  );
}
