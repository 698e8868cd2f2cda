// The content editor's preview of the newest saved version, at phone and desktop size.
import type { EditorPage } from './form';

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

export function PreviewPanel({ doc }: { doc: EditorPage['document'] }) {
  const previewSrc = `/preview?document=${encodeURIComponent(doc.id)}&version=${doc.currentVersion}`;
  return (
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
  );
}
