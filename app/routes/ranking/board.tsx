// /ranking/daily/goodluck, /ranking/weekly/exp, /ranking/monthly/level (decision 037): the period's top 100
// (public nicknames only) and the member's own place, also outside the top 100, with a switch to the
// previous period. The scores are folded from the draws every minute (modules/ranking).
import { redirect } from 'react-router';
import type { Route } from './+types/board';
import { catalogueDb, shopRequestContext } from '#server/context';
import { EmptyState } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { PrLabel } from '~/components/PrLabel';
import { formatCoins } from '~/lib/numbers';
import { boardView, BOARD_PATHS, type BoardLine } from '#server/context';
import type { RankingBoardName } from '#modules/ranking';

export const handle = { title: 'ランキング' };

type BoardKind = RankingBoardName;

const BOARDS: Record<BoardKind, { title: string; rule: string; now: string; before: string }> = {
  goodluck: {
    title: 'デイリー 神引きランキング',
    rule: '1日（0時〜24時）のベストヒット：獲得カードの交換価値 ÷ 1回の価格',
    now: '今日',
    before: '昨日',
  },
  exp: {
    title: 'ウィークリー 経験値ランキング',
    rule: '1週間（月曜0時〜日曜24時）に獲得した経験値（1コイン＝1経験値）',
    now: '今週',
    before: '先週',
  },
  level: {
    title: 'マンスリー レベルランキング',
    rule: '1か月に上がったレベル数（同数なら獲得経験値の多い順）',
    now: '今月',
    before: '先月',
  },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  const path = url.pathname.toLowerCase();
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  const kind: BoardKind = path.endsWith('/weekly/exp') ? 'exp' : path.endsWith('/monthly/level') ? 'level' : 'goodluck';
  const period = url.searchParams.get('period') === 'previous' ? 'previous' : 'current';
  // Boards are folded by a job every minute: a replica's moment of lag changes nothing (decision 075).
  const view = await boardView(catalogueDb(shop), kind, period, shop.member.id);
  return {
    kind,
    period,
    path: BOARD_PATHS[kind],
    periodLabel: view.periodLabel,
    lines: view.lines,
    me: view.me,
  };
}

/** Gold, silver and bronze discs for the top three (drawn, not emoji: not every device has an emoji font). */
const MEDALS: Record<number, string> = {
  1: 'bg-gradient-to-br from-yellow-300 to-amber-500 text-ink ring-2 ring-amber-600',
  2: 'bg-gradient-to-br from-slate-100 to-slate-400 text-ink ring-2 ring-slate-500',
  3: 'bg-gradient-to-br from-amber-700 to-amber-900 text-white ring-2 ring-amber-900',
};

/** A luck score in hundredths as a multiple: 1250 → '×12.5', 10000 → '×100'. */
const formatMultiple = (hundredths: number) =>
  `×${(hundredths / 100).toLocaleString('ja-JP', { maximumFractionDigits: 2 })}`;

export default function RankingBoardPage({ loaderData }: Route.ComponentProps) {
  const board = BOARDS[loaderData.kind];
  // The member is listed once (issue 29 item 12): inside the top list their own line is the pinned one;
  // the separate pinned card is only for a place outside the list (or none).
  const listed = loaderData.lines.some((line) => line.mine);
  return (
    <section aria-labelledby="board-title" className="flex flex-col gap-3 pb-24 md:pb-0">
      <h2 id="board-title" className="text-base font-black">
        {board.title}
      </h2>
      <p className="text-xs text-muted">
        集計：{board.rule}（日本時間・数分ごとに更新）　期間：
        <b className="text-ink" data-testid="board-period">
          {loaderData.periodLabel}
        </b>
      </p>
      <nav aria-label="集計期間" className="flex gap-2">
        {(['current', 'previous'] as const).map((which) => (
          <AppLink
            key={which}
            to={which === 'current' ? loaderData.path : `${loaderData.path}?period=previous`}
            aria-current={loaderData.period === which ? 'page' : undefined}
            className={`rounded-full px-4 py-1.5 text-sm font-bold ${loaderData.period === which ? 'bg-ink text-white' : 'bg-white text-ink ring-1 ring-line'}`}
            data-testid={`period-${which}`}
          >
            {which === 'current' ? board.now : board.before}
          </AppLink>
        ))}
      </nav>
      {loaderData.lines.length === 0 ? (
        <EmptyState
          title={`${loaderData.period === 'current' ? board.now : board.before}はまだだれもランクインしていません`}
          action={
            <AppLink to="/" className="text-sm font-bold text-primary-ink underline">
              オリパを探す
            </AppLink>
          }
        >
          オリパを引くと、ここに上位100名とあなたの順位が表示されます。
        </EmptyState>
      ) : (
        <>
          <ol
            className="flex flex-col gap-1.5"
            aria-label={`${board.title} 上位${loaderData.lines.length}名`}
            data-testid="board"
          >
            {loaderData.lines.map((line, index) => (
              <Line key={index} line={line} kind={loaderData.kind} pinned={line.mine} />
            ))}
          </ol>
          <div className="sticky bottom-[calc(4.5rem+env(safe-area-inset-bottom))] md:bottom-3" aria-live="polite">
            {listed ? null : loaderData.me ? (
              <div className="rounded-2xl shadow-lg ring-2 ring-primary" data-testid="my-place">
                <p className="sr-only">あなたの順位</p>
                <Line line={loaderData.me} kind={loaderData.kind} asItem={false} />
              </div>
            ) : (
              <p
                className="rounded-2xl bg-white px-4 py-3 text-sm font-bold shadow-lg ring-1 ring-line"
                data-testid="my-place"
              >
                {loaderData.period === 'current'
                  ? `あなたは${board.now}まだ引いていません。オリパを引くと順位が付きます。`
                  : `あなたは${board.before}の集計に入っていません。`}
              </p>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** A board line; `pinned`: the member's own line in the list, which stays in sight at the bottom (sticky). */
function Line({
  line,
  kind,
  asItem = true,
  pinned = false,
}: {
  line: BoardLine;
  kind: BoardKind;
  asItem?: boolean;
  pinned?: boolean;
}) {
  const Tag = asItem ? 'li' : 'div';
  return (
    <Tag
      className={`flex items-center gap-3 rounded-2xl px-3 py-2.5 shadow-sm ${line.mine ? 'bg-primary-soft' : 'bg-white'} ${pinned ? 'sticky bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-10 shadow-lg ring-2 ring-primary md:bottom-3' : ''}`}
      data-testid={pinned ? 'my-place' : undefined}
    >
      {pinned ? <span className="sr-only">あなたの順位</span> : null}
      <span className="flex w-10 shrink-0 justify-center">
        <span
          className={`flex size-8 items-center justify-center rounded-full text-sm font-black ${MEDALS[line.place] ?? 'text-muted'}`}
        >
          {formatCoins(line.place)}
          <span className="sr-only">位</span>
        </span>
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate text-sm font-bold">
          {line.sponsored ? <PrLabel /> : null}
          {line.name}
          {/* The darker pink: 4.7:1 on the member's soft pink line (the ink pink is 4.47:1 there). */}
          {line.mine ? <span className="ml-1 text-xs text-primary-dark">（あなた）</span> : null}
        </span>
        {line.hit ? (
          <span className="truncate text-xs text-muted">
            {line.hit.label} {line.hit.cardName}・{line.hit.packTitle}
          </span>
        ) : null}
      </span>
      <span className="shrink-0 text-right font-black">
        {kind === 'goodluck' ? (
          formatMultiple(line.score)
        ) : kind === 'level' ? (
          <>
            +{formatCoins(line.score)}
            <span className="ml-0.5 text-xs">レベル</span>
            <span className="block text-xs font-bold text-muted">{formatCoins(line.tiebreak)} EXP</span>
          </>
        ) : (
          <>
            {formatCoins(line.score)}
            <span className="ml-0.5 text-xs">EXP</span>
          </>
        )}
      </span>
    </Tag>
  );
}
