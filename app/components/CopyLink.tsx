// A shareable link with a copy button that says it copied (or how to copy when the browser refuses):
// 友達招待 (decision 038) and フレンド追加 (decision 045) share it.
import { useEffect, useState } from 'react';
import { Button } from './Button';

/** The link with a copy button that says it copied (or how to copy when the browser refuses). */
export function CopyLink({
  link,
  label = '招待リンク',
  id = 'invitation-link',
}: {
  link: string;
  label?: string;
  id?: string;
}) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 4000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-xs font-bold text-muted">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="min-h-11 w-full min-w-0 rounded-xl border border-line bg-canvas px-3 text-sm"
        />
        <Button
          variant="secondary"
          className="shrink-0"
          onClick={() => {
            const write = navigator.clipboard?.writeText(link);
            if (!write) return setCopied('no');
            write.then(
              () => setCopied('yes'),
              () => setCopied('no'),
            );
          }}
        >
          コピー
        </Button>
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-xs font-bold text-emerald-800">
        {copied === 'yes'
          ? 'リンクをコピーしました'
          : copied === 'no'
            ? 'コピーできませんでした。リンクを長押しして選択・コピーしてください。'
            : ''}
      </p>
    </div>
  );
}
