// The content editor's rich text field (TipTap v3), loaded lazily in the browser only (see
// LazyRichTextEditor): TipTap needs the DOM, so the server renders nothing and the editor is created
// with immediatelyRender: false. It hands its HTML to the form (onChange); the server turns that HTML
// into structured rich text with htmlToRichText, which keeps only what the sanitiser allows
// (headings 2/3, paragraphs, bold, italic, links, lists, images with their size).
import { useRef } from 'react';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';

export interface RichTextEditorProps {
  /** The starting HTML (richTextToHtml of the stored rich text). */
  initialHtml: string;
  onChange: (html: string) => void;
  /** The accessible name of the editing area. */
  label: string;
  /** Uploads an image, answering its URL and size (or a message). */
  uploadImage: (file: File) => Promise<{ url: string; width: number; height: number } | { error: string }>;
}

const toolButton =
  'min-h-9 rounded border border-line bg-white px-2 text-xs font-bold aria-pressed:bg-primary-soft aria-pressed:text-primary-dark';

function Toolbar({ editor, uploadImage }: { editor: Editor; uploadImage: RichTextEditorProps['uploadImage'] }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const tool = (label: string, active: boolean, run: () => void) => (
    <button type="button" className={toolButton} aria-pressed={active} onClick={run}>
      {label}
    </button>
  );
  return (
    <div role="toolbar" aria-label="書式" className="flex flex-wrap gap-1 border-b border-line bg-canvas p-1">
      {tool('見出し2', editor.isActive('heading', { level: 2 }), () =>
        editor.chain().focus().toggleHeading({ level: 2 }).run(),
      )}
      {tool('見出し3', editor.isActive('heading', { level: 3 }), () =>
        editor.chain().focus().toggleHeading({ level: 3 }).run(),
      )}
      {tool('太字', editor.isActive('bold'), () => editor.chain().focus().toggleBold().run())}
      {tool('斜体', editor.isActive('italic'), () => editor.chain().focus().toggleItalic().run())}
      {tool('リンク', editor.isActive('link'), () => {
        const previous = (editor.getAttributes('link') as { href?: string }).href ?? '';
        const url = window.prompt(
          'リンク先（/で始まるサイト内のパス、または https:// のURL。空欄でリンクを外す）',
          previous,
        );
        if (url === null) return;
        if (url.trim() === '') editor.chain().focus().extendMarkRange('link').unsetLink().run();
        else editor.chain().focus().extendMarkRange('link').setLink({ href: url.trim() }).run();
      })}
      {tool('箇条書き', editor.isActive('bulletList'), () => editor.chain().focus().toggleBulletList().run())}
      {tool('番号付き', editor.isActive('orderedList'), () => editor.chain().focus().toggleOrderedList().run())}
      {tool('画像', false, () => fileInput.current?.click())}
      {tool('元に戻す', false, () => editor.chain().focus().undo().run())}
      <input
        ref={fileInput}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="hidden"
        aria-label="本文に入れる画像"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          const uploaded = await uploadImage(file);
          if ('error' in uploaded) return window.alert(uploaded.error);
          const alt = window.prompt('画像の説明（代替テキスト）', '') ?? '';
          editor
            .chain()
            .focus()
            .setImage({ src: uploaded.url, alt, width: uploaded.width, height: uploaded.height })
            .run();
        }}
      />
    </div>
  );
}

export default function RichTextEditor({ initialHtml, onChange, label, uploadImage }: RichTextEditorProps) {
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        // Only what the sanitiser keeps; the rest would be dropped on save and surprise the editor.
        blockquote: false,
        code: false,
        codeBlock: false,
        horizontalRule: false,
        strike: false,
        underline: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https'] },
      }),
      Image.configure({ inline: false }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'prose-content min-h-48 p-3 text-sm focus:outline-none',
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.getHTML()),
  });
  if (!editor) return <p className="p-3 text-sm text-muted">エディタを読み込んでいます…</p>;
  return (
    <div className="mt-1 rounded-lg border border-line bg-white">
      <Toolbar editor={editor} uploadImage={uploadImage} />
      <EditorContent editor={editor} />
    </div>
  );
}
