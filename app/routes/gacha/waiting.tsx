// /gacha/{genreId}/{gachaId}/waiting: a hot release's waiting room (decision 087) — 「待機列」. Members only,
// noindex. Before the start: registered, the order drawn at the start; after: the place, how many are ahead
// and an estimate; in the member's window: the time and lots left and the draw buttons. The page reads the
// place from the API (no reload; only that one call, not the layout's loaders) at the start, then every 3–30 s
// by how far back the member is, and each read moves the queue on.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/waiting';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { Button } from '~/components/Button';
import {
  AdmittedPanel,
  DonePanel,
  JoinPanel,
  RegisteredPanel,
  WaitingPanel,
} from '~/components/waiting-room/WaitingRoomPanels';
import { waitingRoomAction, waitingRoomLoader } from '~/controllers/waiting-room.server';
import { nextReadSeconds } from '#modules/waitingroom/browser';

export const handle = { title: '待機列' };

// noindex by the navigation rules (NOINDEX_PATTERNS): the root's robots meta and the server's X-Robots-Tag.
export function headers() {
  return { 'Cache-Control': 'private, no-store' };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return waitingRoomLoader(context.get(shopRequestContext), request, params);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return waitingRoomAction(context.get(shopRequestContext), request, params);
}

/** Seconds left in the member's window, counted down between two reads (from the server's clock). */
function useSecondsLeft(closesAt: string | null, serverNow: string) {
  const [left, setLeft] = useState(() => (closesAt ? (Date.parse(closesAt) - Date.parse(serverNow)) / 1000 : 0));
  useEffect(() => {
    if (!closesAt) return;
    const loadedAt = Date.now();
    const atLoad = (Date.parse(closesAt) - Date.parse(serverNow)) / 1000;
    setLeft(atLoad);
    const timer = setInterval(() => setLeft(atLoad - (Date.now() - loadedAt) / 1000), 1000);
    return () => clearInterval(timer);
  }, [closesAt, serverNow]);
  return left;
}

/**
 * The member's place, read again from the API while it can change: at the start, then often near the front and
 * in the window, rarely far back (nextReadSeconds), each read only that call.
 */
function useLiveRoom<T extends { state: string; estimateSeconds: number | null; startsAt: string | null; now: string }>(
  initial: T,
  gachaId: string,
): T {
  const [room, setRoom] = useState(initial);
  useEffect(() => setRoom(initial), [initial]);
  const live = ['registered', 'waiting', 'admitted'].includes(room.state);
  useEffect(() => {
    if (!live) return;
    const toStart = room.startsAt ? (Date.parse(room.startsAt) - Date.parse(room.now)) / 1000 : 0;
    let cancelled = false;
    const timer = setTimeout(
      () => {
        if (document.visibilityState !== 'visible') return setRoom((r) => ({ ...r }));
        fetch(`/api/v1/gachas/${encodeURIComponent(gachaId)}/waiting-room`, { credentials: 'same-origin' })
          .then((response) => (response.ok ? (response.json() as Promise<T>) : null))
          .then((next) => !cancelled && setRoom((r) => next ?? { ...r }))
          .catch(() => !cancelled && setRoom((r) => ({ ...r }))); // the next read tries again
      },
      nextReadSeconds(room, toStart + Math.random() * 2) * 1000,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [live, gachaId, room]);
  return room;
}

export default function WaitingRoom({ loaderData, actionData }: Route.ComponentProps) {
  const { pack, captcha } = loaderData;
  const room = useLiveRoom(loaderData.room, pack.id);
  const navigation = useNavigation();
  const secondsLeft = useSecondsLeft(room.state === 'admitted' ? room.windowClosesAt : null, room.now);
  const error = actionData && 'error' in actionData ? actionData.error.message : undefined;
  const leaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'leave';
  return (
    <div className="mx-auto w-full max-w-md space-y-4 px-4 py-6 text-ink">
      <header>
        <p className="text-sm font-bold text-primary-ink">待機列</p>
        <h1 className="text-xl font-bold">{pack.title}</h1>
      </header>
      <div aria-live="polite">
        {room.state === 'not_joined' ? <JoinPanel room={room} captcha={captcha} error={error} /> : null}
        {room.state === 'registered' ? <RegisteredPanel room={room} /> : null}
        {room.state === 'waiting' ? <WaitingPanel room={room} /> : null}
        {room.state === 'admitted' ? <AdmittedPanel room={room} secondsLeft={secondsLeft} pack={pack} /> : null}
        {['done', 'left', 'closed'].includes(room.state) ? <DonePanel state={room.state} /> : null}
      </div>
      {error && room.state !== 'not_joined' ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {['registered', 'waiting', 'admitted'].includes(room.state) ? (
        <Form method="post">
          <input type="hidden" name="intent" value="leave" />
          <Button type="submit" variant="plain" fullWidth loading={leaving}>
            {room.state === 'admitted' ? '購入を終える' : '待機列から抜ける'}
          </Button>
        </Form>
      ) : null}
      <AppLink
        to={`/gacha/${pack.genreId}/${pack.id}`}
        className="block text-center text-sm underline underline-offset-2"
      >
        ガチャの詳細に戻る
      </AppLink>
    </div>
  );
}
