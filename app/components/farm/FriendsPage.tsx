// /app/friends/add (decision 045): the member's friend code and link to share, a form to send a
// friend request by code (filled in when the page was opened from a friend's link, naming its owner),
// the requests received (承認 / 拒否) and sent (取り消し), and the friend list against its limit with
// a 水やり button per friend and 削除 after a confirmation sheet. Every action posts an intention with
// a fresh key through a keyed fetcher and its answer is said in the section it came from (a live
// region), even when the row it came from has left the list.
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useFetcher } from 'react-router';
import type { FriendActionAnswer, FriendRequestView, FriendView, FriendsLoaderData } from '~/lib/farm-contract';
import { Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { CopyLink } from '~/components/CopyLink';
import { ShareButtons } from '~/components/ShareButtons';
import { PageHeading } from '~/components/PageFrame';
import { Sheet } from '~/components/Sheet';
import { formatMemberDate, formatMemberDateTime } from '#modules/kernel/dates';
import { FriendWaterButton } from './FarmFriends';
import { tapKey } from './farm-state';

type Message = { text: string; tone: 'ok' | 'error' } | null;
const rowKey = (friendshipId: number) => `friend-${friendshipId}`;
const messageOf = (answer: FriendActionAnswer): Message => ({ text: answer.message, tone: answer.ok ? 'ok' : 'error' });

/** A section's live region: the last answer for anything in it. */
function Said({ message, testId }: { message: Message; testId?: string }) {
  return (
    <p
      aria-live="polite"
      data-testid={testId}
      className={`text-sm font-bold ${message?.tone === 'error' ? 'text-red-700' : 'text-emerald-800'}`}
    >
      {message?.text ?? ''}
    </p>
  );
}

/** Keeps a row's fetcher alive after the row leaves the list, and hands its answer to the section. */
function AnswerChannel({
  fetcherKey,
  onAnswer,
}: {
  fetcherKey: string;
  onAnswer: (answer: FriendActionAnswer) => void;
}) {
  const fetcher = useFetcher<FriendActionAnswer>({ key: fetcherKey });
  useEffect(() => {
    if (fetcher.data) onAnswer(fetcher.data);
  }, [fetcher.data, onAnswer]);
  return null;
}

/** A section whose rows post through their own fetchers: the channels and the section's message. */
function useRowAnswers() {
  const [acted, setActed] = useState<number[]>([]);
  const [message, setMessage] = useState<Message>(null);
  const onAnswer = useCallback((answer: FriendActionAnswer) => setMessage(messageOf(answer)), []);
  const onActed = useCallback((friendshipId: number) => {
    setMessage(null);
    setActed((current) => (current.includes(friendshipId) ? current : [...current, friendshipId]));
  }, []);
  const channels = acted.map((id) => <AnswerChannel key={id} fetcherKey={rowKey(id)} onAnswer={onAnswer} />);
  return { message, onActed, channels };
}

/** One row's intention button (承認, 拒否, 取り消し, 削除). */
function useRowAction(friendshipId: number, onActed: (friendshipId: number) => void) {
  const fetcher = useFetcher<FriendActionAnswer>({ key: rowKey(friendshipId) });
  const pendingIntent = fetcher.state !== 'idle' ? fetcher.formData?.get('intent') : undefined;
  const post = (intent: string) => {
    onActed(friendshipId);
    fetcher.submit({ intent, friendshipId: String(friendshipId), key: tapKey() }, { method: 'post' });
  };
  return { pendingIntent, post };
}

function Section({
  id,
  title,
  children,
  aside,
}: {
  id: string;
  title: ReactNode;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 id={id} className="text-base font-bold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function AddByCode({ codeFromLink, codeOwner }: Pick<FriendsLoaderData, 'codeFromLink' | 'codeOwner'>) {
  const fetcher = useFetcher<FriendActionAnswer>({ key: 'friend-request' });
  const busy = fetcher.state !== 'idle';
  const answer = busy ? undefined : fetcher.data;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.set('key', tapKey());
    fetcher.submit(form, { method: 'post' });
  };
  return (
    <Section id="friend-request" title="フレンドコードで申請">
      {codeOwner && codeFromLink ? (
        <p className="rounded-xl bg-primary-soft px-3 py-2 text-sm font-bold" data-testid="friend-code-owner">
          {codeOwner.nickname}さんにフレンド申請します
        </p>
      ) : null}
      <fetcher.Form method="post" onSubmit={onSubmit} className="flex flex-col gap-2" noValidate>
        <input type="hidden" name="intent" value="request" />
        <label htmlFor="friend-code" className="text-sm font-bold">
          相手のフレンドコード
        </label>
        <input
          id="friend-code"
          name="code"
          defaultValue={codeFromLink ?? ''}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={20}
          required
          aria-describedby="friend-request-said"
          className="min-h-11 rounded-xl border border-line px-3 text-base tracking-widest uppercase"
        />
        <Button type="submit" loading={busy} fullWidth>
          {codeOwner && codeFromLink ? `${codeOwner.nickname}さんに申請する` : 'フレンド申請する'}
        </Button>
      </fetcher.Form>
      <div id="friend-request-said">
        <Said message={answer ? messageOf(answer) : null} testId="friend-request-message" />
      </div>
    </Section>
  );
}

function MyCode({ friends }: { friends: FriendsLoaderData['friends'] }) {
  return (
    <Section id="friend-my-code" title="あなたのフレンドコード">
      <p className="text-center text-3xl font-black tracking-[0.3em]" data-testid="friend-code">
        {friends.code}
      </p>
      <p className="text-sm text-muted">
        コードかリンクを送ると、相手からフレンド申請が届きます。まだ会員でない方は、登録のあとにそのまま申請できます。
      </p>
      <CopyLink link={friends.link} label="フレンド申請リンク" id="friend-link" />
      <ShareButtons share={friends.share} />
    </Section>
  );
}

function IncomingRow({ request, onActed }: { request: FriendRequestView; onActed: (id: number) => void }) {
  const { pendingIntent, post } = useRowAction(request.friendshipId, onActed);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <span className="min-w-0">
        <span className="block truncate font-bold">{request.nickname}</span>
        <span className="block text-xs text-muted">{formatMemberDateTime(request.requestedAt)} に申請</span>
      </span>
      <span className="flex gap-2">
        <Button
          loading={pendingIntent === 'accept'}
          disabled={pendingIntent != null}
          aria-label={`${request.nickname}さんの申請を承認`}
          onClick={() => post('accept')}
        >
          承認
        </Button>
        <Button
          variant="plain"
          loading={pendingIntent === 'decline'}
          disabled={pendingIntent != null}
          aria-label={`${request.nickname}さんの申請を拒否`}
          onClick={() => post('decline')}
        >
          拒否
        </Button>
      </span>
    </li>
  );
}

function OutgoingRow({ request, onActed }: { request: FriendRequestView; onActed: (id: number) => void }) {
  const { pendingIntent, post } = useRowAction(request.friendshipId, onActed);
  return (
    <li className="flex items-center justify-between gap-2 py-3">
      <span className="min-w-0">
        <span className="block truncate font-bold">{request.nickname}</span>
        <span className="block text-xs text-muted">承認待ち</span>
      </span>
      <Button
        variant="plain"
        loading={pendingIntent === 'cancel'}
        aria-label={`${request.nickname}さんへの申請を取り消し`}
        onClick={() => post('cancel')}
      >
        取り消し
      </Button>
    </li>
  );
}

function FriendRow({
  friend,
  farmPaused,
  onRemove,
}: {
  friend: FriendView;
  farmPaused: boolean;
  onRemove: (friend: FriendView) => void;
}) {
  // The sheet closes at once; the row's own fetcher shows the removal on its way.
  const fetcher = useFetcher<FriendActionAnswer>({ key: rowKey(friend.friendshipId) });
  const removing = fetcher.state !== 'idle' && fetcher.formData?.get('intent') === 'remove';
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-3">
      <span className="min-w-0 pt-2">
        <span className="block truncate font-bold">{friend.nickname}</span>
        <span className="block text-xs text-muted">
          {formatMemberDate(friend.since)} からフレンド
          {friend.growingPlots > 0 ? `・育てている畑 ${friend.growingPlots}` : ''}
        </span>
      </span>
      <span className="flex flex-wrap items-start justify-end gap-x-2 gap-y-1">
        <FriendWaterButton friend={friend} disabledReason={farmPaused ? 'ファームはメンテナンス中です' : null} />
        <Button
          variant="plain"
          loading={removing}
          aria-label={`${friend.nickname}さんをフレンドから削除`}
          onClick={() => onRemove(friend)}
        >
          削除
        </Button>
      </span>
    </li>
  );
}

function RemoveSheet({
  friend,
  onActed,
  onClose,
}: {
  friend: FriendView;
  onActed: (id: number) => void;
  onClose: () => void;
}) {
  const { post } = useRowAction(friend.friendshipId, onActed);
  return (
    <Sheet title={`${friend.nickname}さんをフレンドから削除しますか？`} onClose={onClose} testId="friend-remove-sheet">
      <p className="mt-3 text-sm leading-relaxed text-muted">
        お互いのフレンド一覧から消え、畑への水やりもできなくなります。もう一度フレンドになるには、申請からやり直しです。
      </p>
      <div className="mt-5 flex flex-col gap-2">
        <Button
          variant="danger"
          fullWidth
          onClick={() => {
            post('remove');
            onClose();
          }}
        >
          削除する
        </Button>
        <Button variant="plain" fullWidth onClick={onClose}>
          やめる
        </Button>
      </div>
    </Sheet>
  );
}

function FriendList({ data }: { data: FriendsLoaderData }) {
  const { friends } = data;
  const { message, onActed, channels } = useRowAnswers();
  const [confirming, setConfirming] = useState<FriendView | null>(null);
  return (
    <Section
      id="friend-list"
      title={
        <>
          フレンド
          <span className="ml-2 text-sm font-bold text-muted" data-testid="friend-count">
            {friends.friends.length} / {friends.limit}人
          </span>
        </>
      }
      aside={
        <AppLink to="/app/farm" className="text-sm font-bold text-primary-ink underline">
          ファームへ
        </AppLink>
      }
    >
      {channels}
      {friends.outgoing.length > 0 ? (
        <p className="text-xs text-muted" data-testid="friend-limit-note">
          承認待ちの申請{friends.outgoing.length}件も上限に数えます（あと
          {Math.max(0, friends.limit - friends.friends.length - friends.outgoing.length)}人）。
        </p>
      ) : null}
      {friends.friendWaterCoins > 0 ? (
        <p className="text-xs text-muted">
          フレンドの畑に1日1回（日本時間）水やりすると、お互いに{friends.friendWaterCoins}コイン（今日の上限まで）。
        </p>
      ) : null}
      {friends.friends.length === 0 ? (
        <p className="rounded-xl bg-canvas px-3 py-4 text-center text-sm text-muted">
          まだフレンドがいません。コードやリンクを送って、フレンドになりましょう。
        </p>
      ) : (
        <ul className="divide-y divide-line" aria-label="フレンド一覧">
          {friends.friends.map((friend) => (
            <FriendRow
              key={friend.friendshipId}
              friend={friend}
              farmPaused={data.farmPaused}
              onRemove={setConfirming}
            />
          ))}
        </ul>
      )}
      <Said message={message} testId="friend-list-message" />
      {confirming ? <RemoveSheet friend={confirming} onActed={onActed} onClose={() => setConfirming(null)} /> : null}
    </Section>
  );
}

function Requests({
  title,
  id,
  requests,
  incoming,
}: {
  title: string;
  id: string;
  requests: FriendRequestView[];
  incoming: boolean;
}) {
  const { message, onActed, channels } = useRowAnswers();
  if (requests.length === 0 && !message && channels.length === 0) return null;
  return (
    <Section id={id} title={`${title}（${requests.length}件）`}>
      {channels}
      {requests.length > 0 ? (
        <ul className="divide-y divide-line" aria-label={title}>
          {requests.map((request) =>
            incoming ? (
              <IncomingRow key={request.friendshipId} request={request} onActed={onActed} />
            ) : (
              <OutgoingRow key={request.friendshipId} request={request} onActed={onActed} />
            ),
          )}
        </ul>
      ) : null}
      <Said message={message} testId={`${id}-message`} />
    </Section>
  );
}

export function FriendsPage({ data }: { data: FriendsLoaderData }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4">
      <PageHeading title="フレンド追加" lead="フレンドになると、お互いの畑に水やりしてコインがもらえます" />
      {data.farmPaused ? (
        <p role="status" className="rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          ファームは現在メンテナンス中です。フレンドの追加はできますが、水やりは再開までお休みです。
        </p>
      ) : null}
      {data.codeFromLink ? <AddByCode codeFromLink={data.codeFromLink} codeOwner={data.codeOwner} /> : null}
      <Requests title="届いた申請" id="friend-incoming" requests={data.friends.incoming} incoming />
      <FriendList data={data} />
      <Requests title="送った申請" id="friend-outgoing" requests={data.friends.outgoing} incoming={false} />
      {/* Opened from a friend's link, the request comes first; otherwise sharing one's own code does. */}
      {data.codeFromLink ? null : <MyCode friends={data.friends} />}
      {data.codeFromLink ? null : <AddByCode codeFromLink={null} codeOwner={null} />}
      {data.codeFromLink ? <MyCode friends={data.friends} /> : null}
    </div>
  );
}
