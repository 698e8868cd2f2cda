// The content editor's fields: type, URL, title and tags, then the fields of the document's type.
import { inputClass } from '~/components/admin/fields';
import type { EditorPayload } from '~/controllers/admin-content.server';
import { label, uploadImage, type EditorPage } from './form';

/** The fields above the body; a page has a footer note, a special page a main image, a notice its dates. */
export function DocumentFields({
  doc,
  payload,
  set,
  imageMaxMegabytes,
}: {
  doc: EditorPage['document'];
  payload: EditorPayload;
  set: <K extends keyof EditorPayload>(key: K, value: EditorPayload[K]) => void;
  imageMaxMegabytes: EditorPage['imageMaxMegabytes'];
}) {
  const isNotice = doc.type === 'notice';
  return (
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
          {payload.heroImage ? <span className="mt-1 block font-mono font-normal">{payload.heroImage}</span> : null}
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
  );
}
