// An embed field, click to load: until the member presses the button nothing is fetched from the
// provider (no thumbnail, no script, no frame), so merely opening the page tells YouTube or X nothing.
// After the click, a sandboxed iframe on the provider's privacy-friendlier address (youtube-nocookie,
// X's embed with dnt) built from the id alone: the oEmbed `html` is never rendered.
import { useEffect, useRef, useState } from 'react';
import { EMBED_PROVIDER_LABELS, parseEmbed, type EmbedField } from '#modules/content/render';
import { SafeAnchor } from './ContentLink';

const COPY = {
  youtube: {
    button: 'YouTubeの動画を表示する',
    frameTitle: 'YouTubeの動画',
    open: 'YouTubeで見る',
    // Whose servers: YouTube is Google's.
    notice: 'ボタンを押すと、YouTube（Google）のサーバーに接続して動画を読み込みます。押すまでは接続しません。',
  },
  x: {
    button: 'Xの投稿を表示する',
    frameTitle: 'Xの投稿',
    open: 'Xで見る',
    notice: 'ボタンを押すと、X（旧Twitter）のサーバーに接続して投稿を読み込みます。押すまでは接続しません。',
  },
} as const;

export function Embed({ embed, startLoaded = false }: { embed: EmbedField; startLoaded?: boolean }) {
  const allowed = parseEmbed(embed.embed_url);
  const [loaded, setLoaded] = useState(startLoaded);
  const frame = useRef<HTMLIFrameElement>(null);
  const clicked = useRef(false);
  // Keyboard and screen-reader users land on what they asked for, not back at the page top.
  useEffect(() => {
    if (loaded && clicked.current) frame.current?.focus();
  }, [loaded]);
  if (!allowed) return null;
  const copy = COPY[allowed.provider];
  const title = embed.title?.trim() ? `${copy.frameTitle}：${embed.title.trim()}` : copy.frameTitle;

  if (loaded)
    return (
      <div className={allowed.provider === 'youtube' ? 'aspect-video w-full' : 'mx-auto w-full max-w-[550px]'}>
        <iframe
          ref={frame}
          src={allowed.frameSrc}
          title={title}
          // The players need their own scripts and origin; popups let "watch on YouTube" open.
          sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"
          allow="encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          loading="lazy"
          className={
            allowed.provider === 'youtube'
              ? 'h-full w-full rounded-lg border-0'
              : 'h-[560px] w-full rounded-lg border-0'
          }
        />
      </div>
    );

  return (
    <div
      className="flex w-full flex-col items-center gap-3 rounded-lg border border-line bg-canvas p-4 text-center"
      data-embed-provider={allowed.provider}
    >
      <p className="text-sm font-bold">
        {EMBED_PROVIDER_LABELS[allowed.provider]}
        {embed.title?.trim() ? `：${embed.title.trim()}` : ''}
      </p>
      <button
        type="button"
        onClick={() => {
          clicked.current = true;
          setLoaded(true);
        }}
        className="min-h-11 rounded-full bg-primary-ink px-5 text-sm font-bold text-white hover:bg-primary-dark"
      >
        {copy.button}
      </button>
      <p className="text-xs leading-relaxed text-muted">{copy.notice}</p>
      <SafeAnchor href={allowed.pageUrl} className="text-xs text-primary-ink underline">
        {copy.open}
      </SafeAnchor>
    </div>
  );
}
