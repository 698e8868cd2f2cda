// One slice's form in the content editor (text, image, embed, table, button), and the kinds a page can add.
import { inputClass } from '~/components/admin/fields';
import type { EditorSlice } from '~/controllers/admin-content.server';
import { label, uploadImage } from './form';
import { RichTextField } from './RichTextField';
import { TableEditor } from './TableEditor';

export const NEW_SLICES: Record<EditorSlice['kind'], () => EditorSlice> = {
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
export const SLICE_NAMES: Record<EditorSlice['kind'], string> = {
  text: '文章',
  image: '画像',
  embed: '埋め込み（YouTube・X）',
  table: '表',
  button: 'ボタンリンク',
};

export function SliceForm({
  slice,
  onChange,
  n,
}: {
  slice: EditorSlice;
  onChange: (s: EditorSlice) => void;
  n: number;
}) {
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
