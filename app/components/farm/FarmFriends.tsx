// The farm page's friends (decision 045): each friend with a 水やり button (once a day, Japan time; it
// rewards both within the caps), disabled with 「今日は水やり済み」 once done, and the way to add
// friends. Each row posts through its own fetcher, shows the watering at once, and says the server's
// answer in the row (a live region), where the member tapped.
import { useFetcher } from 'react-router';
import type { FarmActionAnswer, FriendActionAnswer, FriendView } from '~/lib/farm-contract';
import { Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { tapKey } from './farm-state';
import { FarmIcon } from './CropArt';

type Answer = FarmActionAnswer | FriendActionAnswer;

/** The words an answer to a friend's watering leaves in the row. */
export function friendWaterMessage(
  answer: Answer | undefined,
  nickname: string,
): { text: string; tone: 'ok' | 'error' } | null {
  if (!answer) return null;
  if (!answer.ok) return { text: answer.message, tone: 'error' };
  if ('result' in answer) {
    const { coins, cappedCoins } = answer.result;
    const gained =
      coins > 0 ? `あなたに+${coins}コイン` : cappedCoins > 0 ? '今日の上限のため、あなたのコインは増えません' : '';
    return { text: `${nickname}さんの畑に水やりしました。${gained}`, tone: 'ok' };
  }
  return { text: answer.message, tone: 'ok' };
}

/** One friend's watering button and its answer. Posts to the page it is on (the farm or the friends page). */
export function FriendWaterButton({
  friend,
  disabledReason,
}: {
  friend: FriendView;
  /** Why watering is closed for everyone now (the farm is paused), or null. */
  disabledReason: string | null;
}) {
  const fetcher = useFetcher<Answer>({ key: `farm-friend-${friend.friendshipId}` });
  const pending = fetcher.state !== 'idle' && fetcher.formData?.get('intent') === 'water-friend';
  // The loader is read again after every answer, so wateredToday is the server's word once the row is idle.
  const watered = friend.wateredToday || pending;
  const message = pending
    ? null
    : (friendWaterMessage(fetcher.data, friend.nickname) ??
      (disabledReason && !watered ? { text: disabledReason, tone: 'error' as const } : null));
  return (
    <>
      <Button
        variant={watered ? 'plain' : 'secondary'}
        loading={pending}
        disabled={watered || disabledReason != null}
        aria-label={watered ? `${friend.nickname}さん：今日は水やり済み` : `${friend.nickname}さんの畑に水やり`}
        onClick={() => {
          fetcher.submit(
            { intent: 'water-friend', friendshipId: String(friend.friendshipId), key: tapKey() },
            { method: 'post' },
          );
        }}
      >
        {watered ? (
          '今日は水やり済み'
        ) : (
          <>
            <FarmIcon name="drop" />
            水やり
          </>
        )}
      </Button>
      <p
        aria-live="polite"
        className={`w-full text-right text-xs font-bold ${message?.tone === 'error' ? 'text-red-700' : 'text-emerald-800'}`}
      >
        {message?.text ?? ''}
      </p>
    </>
  );
}

export function FarmFriends({
  friends,
  paused,
  friendWaterCoins,
}: {
  friends: FriendView[];
  paused: boolean;
  friendWaterCoins: number;
}) {
  return (
    <section aria-labelledby="farm-friends" className="rounded-2xl bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 id="farm-friends" className="text-base font-bold">
          フレンドの畑
        </h2>
        <AppLink to="/app/friends/add" className="text-sm font-bold text-primary-ink underline">
          フレンドを追加
        </AppLink>
      </div>
      <p className="mt-1 text-xs text-muted">
        フレンドの畑に1日1回（日本時間）水やりできます。
        {friendWaterCoins > 0
          ? `水やりすると、あなたとフレンドの両方に${friendWaterCoins}コイン（今日の上限まで）。`
          : ''}
      </p>
      {friends.length === 0 ? (
        <p className="mt-3 rounded-xl bg-canvas px-3 py-4 text-center text-sm text-muted">
          まだフレンドがいません。フレンドコードを送って、一緒に畑を育てましょう。
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-line" aria-label="フレンド">
          {friends.map((friend) => (
            <li key={friend.friendshipId} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-3">
              <span className="min-w-0">
                <span className="block truncate font-bold">{friend.nickname}</span>
                <span className="block text-xs text-muted">
                  {friend.growingPlots > 0 ? `育てている畑 ${friend.growingPlots}` : '育てている作物はありません'}
                </span>
              </span>
              <FriendWaterButton friend={friend} disabledReason={paused ? 'ファームはメンテナンス中です' : null} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
