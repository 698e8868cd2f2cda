// The rich text field of the content editor: TipTap, loaded in the browser only.
import { lazy, Suspense, useEffect, useState } from 'react';
import { label, uploadImage } from './form';

const RichTextEditor = lazy(() => import('~/components/admin/RichTextEditor'));

/** The rich text field: the TipTap editor once the page runs in the browser (none on the server). */
export function RichTextField(props: { id: string; label: string; html: string; onChange: (html: string) => void }) {
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
