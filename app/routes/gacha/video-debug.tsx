// /gacha/video/debug: a preview of every reveal animation, for staff and in development.
import { useState } from 'react';
import type { Route } from './+types/video-debug';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button } from '~/components/Button';
import {
  EFFECT_SWATCHES,
  REVEAL_EFFECTS,
  Reveal,
  revealTimeline,
  sampleRevealItems,
  type RevealEffect,
} from '~/components/reveal';
import { notFound } from '~/lib/not-found';
import { requireStaff } from '~/controllers/staff.server';

export const handle = { title: '演出プレビュー' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  if (shop.services.config.NODE_ENV === 'development') return null;
  // Outside development, a staff page: staff with the second factor only (requireStaff).
  if (!shop.member) throw notFound(new URL(request.url).pathname);
  await requireStaff(shop, request);
  return null;
}

interface Playing {
  effect: RevealEffect;
  count: number;
  autoPlay: boolean;
  run: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}秒`;

export default function VideoDebug() {
  const [playing, setPlaying] = useState<Playing | null>(null);
  const [tapToOpen, setTapToOpen] = useState(false);
  const play = (effect: RevealEffect, count: number) =>
    setPlaying((previous) => ({ effect, count, autoPlay: !tapToOpen, run: (previous?.run ?? 0) + 1 }));

  return (
    <>
      <PageHeading
        title="演出プレビュー"
        lead="スタッフ・開発用：各賞の演出を確認できます。サンプルのカードで再生します。"
      />
      <label className="mb-4 flex min-h-11 items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-5 accent-primary-ink"
          checked={tapToOpen}
          onChange={(event) => setTapToOpen(event.target.checked)}
        />
        タップで開封する（自動再生しない）
      </label>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {REVEAL_EFFECTS.map(({ effect, label, description }) => (
          <li key={effect} className="flex flex-col rounded-2xl border border-line bg-white p-4">
            <div className="flex items-center gap-3">
              <span
                aria-hidden="true"
                className="size-10 shrink-0 rounded-full border-2 border-white shadow"
                style={{ background: EFFECT_SWATCHES[effect] }}
              />
              <div>
                <h2 className="text-base font-bold">{label}</h2>
                <p className="text-xs text-muted">
                  1回 {seconds(revealTimeline(effect, 1).totalMs)}・10連 {seconds(revealTimeline(effect, 10).totalMs)}
                </p>
              </div>
            </div>
            <p className="mt-3 flex-1 text-sm leading-relaxed text-muted">{description}</p>
            <div className="mt-4 flex flex-wrap gap-2">
              <Button onClick={() => play(effect, 1)} aria-label={`${label}を再生`}>
                再生
              </Button>
              <Button variant="secondary" onClick={() => play(effect, 10)} aria-label={`${label}を10連で再生`}>
                10連で再生
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs leading-relaxed text-muted">
        端末で「視差効果を減らす（動きを減らす）」が有効な場合、演出は再生されず結果の画面がすぐに表示されます。
      </p>
      {playing ? (
        <Reveal
          key={playing.run}
          items={sampleRevealItems(playing.effect, playing.count)}
          autoPlay={playing.autoPlay}
          onDone={() => setPlaying(null)}
        />
      ) : null}
    </>
  );
}
