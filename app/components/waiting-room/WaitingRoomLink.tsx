// The pack page's way to a hot release's waiting room (decision 087): the same for everyone (no personal text).
import { AppLink } from '~/components/AppLink';

/** @example <WaitingRoomLink genreId="pokemon" gachaId="hot-001" /> */
export function WaitingRoomLink({ genreId, gachaId }: { genreId: string; gachaId: string }) {
  return (
    <AppLink
      to={`/gacha/${genreId}/${gachaId}/waiting`}
      className="block min-h-11 rounded-xl border border-primary-ink bg-primary-soft p-3 text-center text-sm font-bold text-primary-ink"
    >
      このガチャは待機列から購入できます（順番は開始時刻に抽選）― 待機列へ
    </AppLink>
  );
}
