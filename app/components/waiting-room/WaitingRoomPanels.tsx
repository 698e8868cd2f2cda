// The waiting room's panels (decision 087), one per state of the member's place: not joined (join with the
// captcha), registered before the start, waiting with place and estimate, admitted with the time and lots
// left and the draw buttons, done, and closed. Japanese, mobile-first; every button shows its loading state.
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { Captcha, type CaptchaWidget } from '~/components/Captcha';
import { drawOptionLabel } from '~/components/gacha/labels';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';

export interface WaitingRoomView {
  state: string;
  startsAt: string | null;
  cap: number | null;
  windowSeconds: number | null;
  place: number | null;
  ahead: number | null;
  estimateSeconds: number | null;
  windowClosesAt: string | null;
  lotsLeft: number | null;
  /** The server's clock when the place was read. */
  now: string;
}

/** 「約3分」: an estimate in whole minutes (seconds under one). */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `約${seconds}秒`;
  const minutes = Math.round(seconds / 60);
  return minutes >= 60
    ? `約${Math.floor(minutes / 60)}時間${minutes % 60 ? `${minutes % 60}分` : ''}`
    : `約${minutes}分`;
}

/** 「3分」「1分30秒」「45秒」: a window's length. */
export function durationWords(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m ? `${m}分` : ''}${s || !m ? `${s}秒` : ''}`;
}

/** 「2:05」: minutes and seconds left. */
export function clockWords(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const card = 'rounded-2xl border border-line bg-white p-5 shadow-sm';

function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

export function JoinPanel({
  room,
  captcha,
  error,
}: {
  room: WaitingRoomView;
  captcha: CaptchaWidget | null;
  error?: string;
}) {
  const submitting = useSubmitting('join');
  const beforeStart = room.startsAt !== null && Date.parse(room.startsAt) > Date.parse(room.now);
  return (
    <section className={card} aria-labelledby="join-heading">
      <h2 id="join-heading" className="text-lg font-bold">
        待機列に並ぶ
      </h2>
      <p className="mt-2 text-sm leading-relaxed">
        {beforeStart
          ? `${formatMemberDateTime(room.startsAt!)}までに並んだ方の順番は、販売開始の時刻にサーバーが無作為に抽選します。先に画面を開いた方や、再読み込みの速さで順番が決まることはありません。`
          : '販売開始の時刻までに並んだ方の順番はサーバーが無作為に抽選しました。'}
        開始後に並んだ方は、その後ろに並んだ順で続きます。
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
        {room.cap ? <li>お一人様{formatCoins(room.cap)}口まで</li> : null}
        {room.windowSeconds ? <li>順番が来たら{durationWords(room.windowSeconds)}のあいだ購入できます</li> : null}
        <li>並ぶには電話番号の認証が必要です（電話番号ごとに1人まで）</li>
      </ul>
      <Form method="post" className="mt-4 space-y-3">
        <input type="hidden" name="intent" value="join" />
        {captcha ? <Captcha {...captcha} resetOn={error} /> : null}
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          待機列に並ぶ
        </Button>
      </Form>
    </section>
  );
}

export function RegisteredPanel({ room }: { room: WaitingRoomView }) {
  return (
    <section className={card} aria-labelledby="registered-heading">
      <h2 id="registered-heading" className="text-lg font-bold">
        待機列に登録しました
      </h2>
      <p className="mt-2 text-sm leading-relaxed">
        {room.startsAt ? `販売開始（${formatMemberDateTime(room.startsAt)}）の時刻に、` : '販売開始の時刻に、'}
        登録した方の順番をサーバーが無作為に抽選します。このページを開いたままお待ちください（自動で更新されます）。
      </p>
    </section>
  );
}

export function WaitingPanel({ room }: { room: WaitingRoomView }) {
  return (
    <section className={card} aria-labelledby="waiting-heading">
      <h2 id="waiting-heading" className="text-lg font-bold">
        順番をお待ちください
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-center">
        <div className="rounded-xl bg-canvas p-3">
          <dt className="text-xs text-muted">あなたの順番</dt>
          <dd className="text-2xl font-bold">
            {room.place ? `${formatCoins(room.place)}番` : `${formatCoins((room.ahead ?? 0) + 1)}番目`}
          </dd>
          {room.place ? null : <dd className="text-xs text-muted">開始後に並んだ順</dd>}
        </div>
        <div className="rounded-xl bg-canvas p-3">
          <dt className="text-xs text-muted">前に待っている人</dt>
          <dd className="text-2xl font-bold">{formatCoins(room.ahead ?? 0)}人</dd>
        </div>
      </dl>
      {room.estimateSeconds !== null ? (
        <p className="mt-3 text-sm">
          順番が来るまでの目安: <strong>{waitWords(room.estimateSeconds)}</strong>
          （前の方が早く終えると早まります）
        </p>
      ) : null}
    </section>
  );
}

export function AdmittedPanel({
  room,
  secondsLeft,
  pack,
}: {
  room: WaitingRoomView;
  secondsLeft: number;
  pack: { id: string; genreId: string; pricePerDraw: number; drawOptions: number[] };
}) {
  const navigation = useNavigation();
  const [key] = useState(() => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : ''));
  const lotsLeft = room.lotsLeft ?? 0;
  const options = pack.drawOptions.filter((n) => n <= lotsLeft);
  const drawing = navigation.state !== 'idle' && navigation.formData?.has('count');
  return (
    <section className={`${card} border-primary`} aria-labelledby="admitted-heading">
      <h2 id="admitted-heading" className="text-lg font-bold text-primary-ink">
        あなたの順番です
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-center">
        <div className="rounded-xl bg-primary-soft p-3">
          <dt className="text-xs">購入できる残り時間</dt>
          <dd className="text-2xl font-bold" aria-live="off">
            {clockWords(secondsLeft)}
          </dd>
        </div>
        <div className="rounded-xl bg-primary-soft p-3">
          <dt className="text-xs">引ける残りの口数</dt>
          <dd className="text-2xl font-bold">{formatCoins(lotsLeft)}口</dd>
        </div>
      </dl>
      <Form method="post" action={`/gacha/${pack.genreId}/${pack.id}`} className="mt-4 grid gap-2">
        <input type="hidden" name="idempotencyKey" value={key} />
        {options.map((count) => (
          <Button key={count} type="submit" name="count" value={String(count)} size="lg" fullWidth loading={drawing}>
            {drawOptionLabel(count)}引く（{formatCoins(pack.pricePerDraw * count)}コイン）
          </Button>
        ))}
      </Form>
    </section>
  );
}

export function DonePanel({ state }: { state: string }) {
  const words: Record<string, [string, string]> = {
    done: [
      '購入時間が終了しました',
      'ご参加ありがとうございました。引いたカードはマイページの獲得商品で確認できます。',
    ],
    left: ['待機列から抜けました', 'このガチャの待機列にはもう並べません。'],
    closed: ['販売は終了しました', 'このガチャは完売、または販売期間が終わりました。'],
  };
  const [heading, body] = words[state] ?? words.done!;
  return (
    <section className={card} aria-labelledby="done-heading">
      <h2 id="done-heading" className="text-lg font-bold">
        {heading}
      </h2>
      <p className="mt-2 text-sm">{body}</p>
    </section>
  );
}
