// /admin/content/:documentId: the editor of one page, special page or notice (docs/decisions/040).
// Fields, the rich text (TipTap, loaded in the browser only), slices (text, image, embed, table,
// button: added, moved and removed), a preview at phone and desktop size of the newest version, publish,
// unpublish, booked publication, and the version history with a line diff and rollback.
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/document';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { FormAnswer, inputClass } from '~/components/admin/fields';
import {
  contentEditorAction,
  contentEditorLoader,
  type ContentActionData,
  type EditorPayload,
  type EditorSlice,
} from '~/controllers/admin-content.server';

export const handle = { title: 'ページの編集' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return contentEditorLoader(context.get(shopRequestContext), request, params.documentId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return contentEditorAction(context.get(shopRequestContext), request, params.documentId);
}

const RichTextEditor = lazy(() => import('~/components/admin/RichTextEditor'));
const label = 'text-xs font-bold';

async function uploadImage(file: File): Promise<{ url: string; width: number; height: number } | { error: string }> {
  const body = new FormData();
  body.set('image', file);
  try {
    const response = await fetch('/admin/content/images', { method: 'POST', body });
    const json = (await response.json()) as { url: string; width: number; height: number } | { error: string };
    return response.ok || 'error' in json ? json : { error: '画像をアップロードできませんでした。' };
  } catch {
    return { error: '画像をアップロードできませんでした。通信を確認してください。' };
  }
}

/** The rich text field: the TipTap editor once the page runs in the browser (none on the server). */
function RichTextField(props: { id: string; label: string; html: string; onChange: (html: string) => void }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <div className={label} id={props.id}>
      {props.label}
      {mounted ? (
        <Suspense fallback={<p className="p-3 text-sm text-muted">エディタを読み込んでいます…</p>}>
          <RichTextEditor
            initialHtml={props.html}
            onChange={props.onChange}
            label={props.label}
            uploadImage={uploadImage}
          />
        </Suspense>
      ) : (
        <p className="p-3 text-sm text-muted">エディタを読み込んでいます…</p>
      )}
    </div>
  );
}

const NEW_SLICES: Record<EditorSlice['kind'], () => EditorSlice> = {
  text: () => ({ kind: 'text', html: '' }),
  image: () => ({ kind: 'image', url: '', alt: '', width: 0, height: 0, caption: '' }),
  embed: () => ({ kind: 'embed', url: '', caption: '' }),
  table: () => ({
    kind: 'table',
    header: true,
    rows: [
      ['', ''],
      ['', ''],
    ],
    caption: '',
  }),
  button: () => ({ kind: 'button', label: '', url: '' }),
};
const SLICE_NAMES: Record<EditorSlice['kind'], string> = {
  text: '文章',
  image: '画像',
  embed: '埋め込み（YouTube・X）',
  table: '表',
  button: 'ボタンリンク',
};

function TableEditor({
  slice,
  onChange,
  n,
}: {
  slice: Extract<EditorSlice, { kind: 'table' }>;
  onChange: (s: EditorSlice) => void;
  n: number;
}) {
  const columns = slice.rows[0]?.length ?? 1;
  const setCell = (r: number, c: number, text: string) =>
    onChange({
      ...slice,
      rows: slice.rows.map((row, ri) => (ri === r ? row.map((cell, ci) => (ci === c ? text : cell)) : row)),
    });
  return (
    <div className="grid gap-2">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={slice.header}
          onChange={(e) => onChange({ ...slice, header: e.target.checked })}
        />
        1行目を見出しにする
      </label>
      <div className="overflow-x-auto">
        <table className="text-sm">
          <tbody>
            {slice.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <td key={c} className="p-0.5">
                    <input
                      aria-label={`スライス${n}の表 ${r + 1}行${c + 1}列`}
                      value={cell}
                      onChange={(e) => setCell(r, c, e.target.value)}
                      className={`min-h-9 w-32 rounded border border-line px-2 ${slice.header && r === 0 ? 'font-bold' : ''}`}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="plain"
          onClick={() => onChange({ ...slice, rows: [...slice.rows, Array(columns).fill('')] })}
        >
          行を追加
        </Button>
        <Button
          type="button"
          variant="plain"
          disabled={slice.rows.length <= 1}
          onClick={() => onChange({ ...slice, rows: slice.rows.slice(0, -1) })}
        >
          最後の行を削除
        </Button>
        <Button
          type="button"
          variant="plain"
          onClick={() => onChange({ ...slice, rows: slice.rows.map((row) => [...row, '']) })}
        >
          列を追加
        </Button>
        <Button
          type="button"
          variant="plain"
          disabled={columns <= 1}
          onClick={() => onChange({ ...slice, rows: slice.rows.map((row) => row.slice(0, -1)) })}
        >
          最後の列を削除
        </Button>
      </div>
    </div>
  );
}

function SliceForm({ slice, onChange, n }: { slice: EditorSlice; onChange: (s: EditorSlice) => void; n: number }) {
  switch (slice.kind) {
    case 'text':
      return (
        <RichTextField
          id={`slice-${n}-text`}
          label={`スライス${n}の文章`}
          html={slice.html}
          onChange={(html) => onChange({ ...slice, html })}
        />
      );
    case 'image':
      return (
        <div className="grid gap-2 sm:grid-cols-2">
          <label className={label}>
            画像（JPEG・PNG・WebP）
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="mt-1 block w-full text-sm"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                const uploaded = await uploadImage(file);
                if ('error' in uploaded) return window.alert(uploaded.error);
                onChange({ ...slice, url: uploaded.url, width: uploaded.width, height: uploaded.height });
              }}
            />
            {slice.url ? (
              <img
                src={slice.url}
                alt=""
                width={160}
                height={Math.round((160 * slice.height) / Math.max(1, slice.width))}
                className="mt-2 rounded border border-line"
              />
            ) : null}
          </label>
          <label className={label}>
            画像の説明（代替テキスト）
            <input
              value={slice.alt}
              maxLength={200}
              onChange={(e) => onChange({ ...slice, alt: e.target.value })}
              className={inputClass}
            />
          </label>
          <label className={label}>
            キャプション（任意）
            <input
              value={slice.caption}
              maxLength={200}
              onChange={(e) => onChange({ ...slice, caption: e.target.value })}
              className={inputClass}
            />
          </label>
        </div>
      );
    case 'embed':
      return (
        <label className={label}>
          YouTube・X の投稿のURL（https://）
          <input
            type="url"
            value={slice.url}
            maxLength={500}
            onChange={(e) => onChange({ ...slice, url: e.target.value })}
            className={inputClass}
          />
        </label>
      );
    case 'table':
      return <TableEditor slice={slice} onChange={onChange} n={n} />;
    case 'button':
      return (
        <div className="grid gap-2 sm:grid-cols-2">
          <label className={label}>
            ボタンの文言
            <input
              value={slice.label}
              maxLength={60}
              onChange={(e) => onChange({ ...slice, label: e.target.value })}
              className={inputClass}
            />
          </label>
          <label className={label}>
            リンク先（/で始まるパス、または https:// のURL）
            <input
              value={slice.url}
              maxLength={500}
              onChange={(e) => onChange({ ...slice, url: e.target.value })}
              className={inputClass}
            />
          </label>
        </div>
      );
  }
}

/** Asks before a destructive action; cancels the submit when the operator says no. */
const confirmFirst = (question: string) => (event: FormEvent<HTMLFormElement>) => {
  if (!window.confirm(question)) event.preventDefault();
};

function PreviewFrames({ src }: { src: string }) {
  const frames = [
    { name: 'スマートフォン', width: 390, height: 760, scale: 0.6 },
    { name: 'パソコン', width: 1280, height: 900, scale: 0.4 },
  ];
  return (
    <div className="flex flex-wrap items-start gap-4">
      {frames.map((f) => (
        <figure key={f.name}>
          <figcaption className="text-xs font-bold">
            {f.name}（幅{f.width}px）
          </figcaption>
          <div
            className="overflow-hidden rounded border border-line"
            style={{ width: f.width * f.scale, height: f.height * f.scale }}
          >
            <iframe
              title={`プレビュー（${f.name}）`}
              src={src}
              width={f.width}
              height={f.height}
              style={{ transform: `scale(${f.scale})`, transformOrigin: '0 0', border: 0 }}
            />
          </div>
        </figure>
      ))}
    </div>
  );
}

export default function ContentEditor({ loaderData }: Route.ComponentProps) {
  const { document: doc, versions, diff, imageMaxMegabytes } = loaderData;
  const [payload, setPayload] = useState<EditorPayload>(loaderData.payload);
  const set = <K extends keyof EditorPayload>(key: K, value: EditorPayload[K]) =>
    setPayload((p) => ({ ...p, [key]: value }));
  const setSlice = (index: number, slice: EditorSlice) =>
    setPayload((p) => ({ ...p, slices: p.slices.map((s, i) => (i === index ? slice : s)) }));
  const moveSlice = (index: number, by: -1 | 1) =>
    setPayload((p) => {
      const slices = [...p.slices];
      const other = index + by;
      if (other < 0 || other >= slices.length) return p;
      [slices[index], slices[other]] = [slices[other]!, slices[index]!];
      return { ...p, slices };
    });
  const [newSlice, setNewSlice] = useState<EditorSlice['kind']>('text');
  // Slices have no id of their own in the editor: a counter keys them so moving keeps their editors.
  const [sliceKeys, setSliceKeys] = useState(() => payload.slices.map((_, i) => i));
  const [nextKey, setNextKey] = useState(payload.slices.length);
  const answer = useActionData<ContentActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const previewSrc = `/preview?document=${encodeURIComponent(doc.id)}&version=${doc.currentVersion}`;
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
          <FormAnswer answer={answer} form="editor" />
          <div className="grid gap-3 sm:grid-cols-2">
            <label className={label}>
              種類（作成後は変更できません）
              <input value={doc.typeLabel} readOnly className={`${inputClass} bg-canvas`} />
            </label>
            <label className={label}>
              URL（{isNotice ? '/notices/ のあと' : '/ のあと'}。半角英小文字・数字・-・_）
              <input
                value={payload.uid}
                required
                maxLength={330}
                onChange={(e) => set('uid', e.target.value)}
                className={inputClass}
              />
            </label>
            <label className={label}>
              タイトル
              <input
                value={payload.title}
                required
                maxLength={120}
                onChange={(e) => set('title', e.target.value)}
                className={inputClass}
              />
            </label>
            <label className={label}>
              タグ（カンマ区切り）
              <input
                value={payload.tags}
                maxLength={400}
                onChange={(e) => set('tags', e.target.value)}
                className={inputClass}
              />
            </label>
            {!isNotice ? (
              <label className={`${label} sm:col-span-2`}>
                説明（検索結果などに表示。300文字まで）
                <textarea
                  value={payload.description}
                  maxLength={300}
                  rows={2}
                  onChange={(e) => set('description', e.target.value)}
                  className={`${inputClass} py-2`}
                />
              </label>
            ) : null}
            {doc.type === 'page' ? (
              <label className={`${label} sm:col-span-2`}>
                フッターの表示（全ページのフッターに出す1行。古物営業法の許可番号などに使います。空欄なら出しません）
                <input
                  value={payload.footerNote}
                  maxLength={200}
                  onChange={(e) => set('footerNote', e.target.value)}
                  className={inputClass}
                />
              </label>
            ) : null}
            {doc.type === 'special' ? (
              <label className={label}>
                メイン画像（JPEG・PNG・WebP、{imageMaxMegabytes}MBまで）
                <input
                  type="file"
                  accept="image/jpeg,image/png,image/webp"
                  className="mt-1 block w-full text-sm"
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    if (!file) return;
                    const uploaded = await uploadImage(file);
                    if ('error' in uploaded) return window.alert(uploaded.error);
                    set('heroImage', uploaded.url);
                  }}
                />
                {payload.heroImage ? (
                  <span className="mt-1 block font-mono font-normal">{payload.heroImage}</span>
                ) : null}
              </label>
            ) : null}
            {isNotice ? (
              <>
                <label className={label}>
                  表示開始（日本時間・空欄は制限なし）
                  <input
                    type="datetime-local"
                    value={payload.startsAt}
                    onChange={(e) => set('startsAt', e.target.value)}
                    className={inputClass}
                  />
                </label>
                <label className={label}>
                  表示終了（日本時間・空欄は制限なし）
                  <input
                    type="datetime-local"
                    value={payload.endsAt}
                    onChange={(e) => set('endsAt', e.target.value)}
                    className={inputClass}
                  />
                </label>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={payload.important}
                    onChange={(e) => set('important', e.target.checked)}
                    className="size-4"
                  />
                  重要（先頭に目立たせて表示）
                </label>
              </>
            ) : null}
          </div>
          <RichTextField
            id="body-editor"
            label="本文"
            html={loaderData.payload.bodyHtml}
            onChange={(html) => set('bodyHtml', html)}
          />

          {!isNotice ? (
            <fieldset className="grid gap-3">
              <legend className="text-sm font-bold">スライス（本文のあとに順に表示）</legend>
              {payload.slices.map((slice, index) => (
                <div key={sliceKeys[index]} className="rounded-xl border border-line p-3" data-testid="editor-slice">
                  <div className="mb-2 flex flex-wrap items-center gap-2">
                    <span className="text-sm font-bold">
                      スライス{index + 1}：{SLICE_NAMES[slice.kind]}
                    </span>
                    <Button
                      type="button"
                      variant="plain"
                      disabled={index === 0}
                      aria-label={`スライス${index + 1}を上へ`}
                      onClick={() => {
                        moveSlice(index, -1);
                        setSliceKeys((keys) => {
                          const next = [...keys];
                          [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
                          return next;
                        });
                      }}
                    >
                      上へ
                    </Button>
                    <Button
                      type="button"
                      variant="plain"
                      disabled={index === payload.slices.length - 1}
                      aria-label={`スライス${index + 1}を下へ`}
                      onClick={() => {
                        moveSlice(index, 1);
                        setSliceKeys((keys) => {
                          const next = [...keys];
                          [next[index + 1], next[index]] = [next[index]!, next[index + 1]!];
                          return next;
                        });
                      }}
                    >
                      下へ
                    </Button>
                    <Button
                      type="button"
                      variant="plain"
                      aria-label={`スライス${index + 1}を削除`}
                      onClick={() => {
                        if (!window.confirm(`スライス${index + 1}（${SLICE_NAMES[slice.kind]}）を削除しますか？`))
                          return;
                        setPayload((p) => ({ ...p, slices: p.slices.filter((_, i) => i !== index) }));
                        setSliceKeys((keys) => keys.filter((_, i) => i !== index));
                      }}
                    >
                      削除
                    </Button>
                  </div>
                  <SliceForm slice={slice} n={index + 1} onChange={(s) => setSlice(index, s)} />
                </div>
              ))}
              <div className="flex flex-wrap items-end gap-2">
                <label className={label}>
                  追加するスライス
                  <select
                    value={newSlice}
                    onChange={(e) => setNewSlice(e.target.value as EditorSlice['kind'])}
                    className={inputClass}
                  >
                    {(Object.keys(SLICE_NAMES) as EditorSlice['kind'][]).map((kind) => (
                      <option key={kind} value={kind}>
                        {SLICE_NAMES[kind]}
                      </option>
                    ))}
                  </select>
                </label>
                <Button
                  type="button"
                  variant="secondary"
                  onClick={() => {
                    setPayload((p) => ({ ...p, slices: [...p.slices, NEW_SLICES[newSlice]()] }));
                    setSliceKeys((keys) => [...keys, nextKey]);
                    setNextKey((k) => k + 1);
                  }}
                >
                  スライスを追加
                </Button>
              </div>
            </fieldset>
          ) : null}
          <div>
            <Button type="submit" loading={busy('save')}>
              保存（新しい版）
            </Button>
          </div>
        </Form>
      </section>

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

      <section aria-labelledby="preview-title" className="mt-6 rounded-2xl border border-line bg-white p-5">
        <h2 id="preview-title" className="text-lg font-bold">
          プレビュー（保存済みの版{doc.currentVersion}）
        </h2>
        <p className="mt-1 text-sm text-muted">
          保存した内容が表示されます。
          <a href={previewSrc} target="_blank" rel="noreferrer" className="underline">
            別のタブで開く
          </a>
        </p>
        <div className="mt-3">
          <PreviewFrames src={previewSrc} />
        </div>
      </section>

      <section aria-labelledby="history-title" className="mt-6 rounded-2xl border border-line bg-white p-5">
        <h2 id="history-title" className="text-lg font-bold">
          履歴
        </h2>
        <FormAnswer answer={answer} form="history" />
        <Form method="get" className="mt-3 grid gap-2">
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col">比較元</th>
                <th scope="col">比較先</th>
                <th scope="col">版</th>
                <th scope="col">タイトル・URL</th>
                <th scope="col">保存</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr key={v.version} className="border-t border-line">
                  <td>
                    <input
                      type="radio"
                      name="from"
                      value={v.version}
                      defaultChecked={diff ? diff.from === v.version : v.version === doc.currentVersion - 1}
                      aria-label={`版${v.version}を比較元にする`}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="to"
                      value={v.version}
                      defaultChecked={diff ? diff.to === v.version : v.version === doc.currentVersion}
                      aria-label={`版${v.version}を比較先にする`}
                    />
                  </td>
                  <td className="font-bold">
                    版{v.version}
                    {v.version === doc.publishedVersion ? (
                      <span className="ml-1 rounded bg-green-100 px-1 text-xs text-green-900">公開中</span>
                    ) : null}
                  </td>
                  <td>
                    {v.title} <span className="font-mono text-xs">/{v.uid}</span>
                    {v.note ? <span className="block text-xs text-muted">{v.note}</span> : null}
                  </td>
                  <td className="text-xs">
                    {v.at}・{v.by}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div>
            <Button type="submit" variant="secondary">
              差分を見る
            </Button>
          </div>
        </Form>
        <div className="mt-3 flex flex-wrap gap-2">
          {versions
            .filter((v) => v.version !== doc.currentVersion)
            .slice(0, 10)
            .map((v) => (
              <Form
                key={v.version}
                method="post"
                onSubmit={confirmFirst(`版${v.version}の内容に戻して公開しますか？ 新しい版として保存されます。`)}
              >
                <input type="hidden" name="intent" value="rollback" />
                <input type="hidden" name="version" value={v.version} />
                <Button
                  type="submit"
                  variant="plain"
                  loading={busy('rollback') && navigation.formData?.get('version') === String(v.version)}
                >
                  版{v.version}に戻す
                </Button>
              </Form>
            ))}
        </div>
        {diff ? (
          <div className="mt-4">
            <h3 className="text-sm font-bold">
              版{diff.from} → 版{diff.to} の差分（+ 追加・− 削除）
            </h3>
            <pre className="mt-2 overflow-x-auto rounded-lg border border-line text-xs" data-testid="version-diff">
              {diff.lines.map((line, i) => (
                <div
                  key={i}
                  className={
                    line.kind === 'added'
                      ? 'bg-green-100 text-green-900'
                      : line.kind === 'removed'
                        ? 'bg-red-100 text-red-900'
                        : ''
                  }
                >
                  <span aria-hidden="true">{line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}</span>
                  {line.kind === 'added' ? (
                    <span className="sr-only">追加：</span>
                  ) : line.kind === 'removed' ? (
                    <span className="sr-only">削除：</span>
                  ) : null}
                  {line.text}
                </div>
              ))}
            </pre>
          </div>
        ) : null}
      </section>
    </div>
  );
}
