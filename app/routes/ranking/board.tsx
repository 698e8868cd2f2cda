// /ranking/daily/goodluck, /ranking/weekly/exp, /ranking/monthly/level: until the rankings module, the
// real top 100 of the period counted from draws (public nicknames only) and the member's own place.
import { redirect } from 'react-router';
import type { Route } from './+types/board';
import { shopRequestContext } from '~/context';
import { EmptyState } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import { toShopZone } from '~/lib/dates';
import { jstPeriod, weeklyExpRanking, dailyLuckRanking, type RankingBoard, type RankingEntry } from '#modules/draw';
import { describeTiers } from '#modules/gacha';
import { publicNicknames } from '#modules/identity';

export const handle = { title: 'ランキング' };

type BoardKind = 'goodluck' | 'exp' | 'level';

const BOARDS: Record<BoardKind, { title: string; rule: string }> = {
  goodluck: {
    title: 'デイリー 神引きランキング',
    rule: '今日（0時〜24時）のベストヒット：獲得カードの交換価値 ÷ 1回の価格',
  },
  exp: {
    title: 'ウィークリー 経験値ランキング',
    rule: '今週（月曜0時〜日曜24時）に獲得した経験値（1コイン＝1経験値）',
  },
  level: { title: 'マンスリー レベルランキング', rule: '今月に上がったレベル数' },
};

/** One line as the page shows it: never an email, never a member id. */
interface BoardLine {
  place: number;
  name: string;
  score: number;
  mine: boolean;
  hit: { label: string; cardName: string; packTitle: string } | null;
}

const md = (date: Date) => {
  const zoned = toShopZone(date)!;
  return `${zoned.getMonth() + 1}月${zoned.getDate()}日`;
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const path = new URL(request.url).pathname.toLowerCase();
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  const kind: BoardKind = path.endsWith('/weekly/exp') ? 'exp' : path.endsWith('/monthly/level') ? 'level' : 'goodluck';
  if (kind === 'level') return { kind, periodLabel: null, lines: [] as BoardLine[], me: null as BoardLine | null };
  const { db } = shop.services;
  const now = new Date();
  const period = jstPeriod(kind === 'exp' ? 'week' : 'day', now);
  const board: RankingBoard =
    kind === 'exp'
      ? await weeklyExpRanking(db, period, shop.member.id)
      : await dailyLuckRanking(db, period, shop.member.id);
  const all = board.me ? [...board.entries, board.me] : board.entries;
  const [names, tiers] = await Promise.all([
    publicNicknames(
      db,
      all.map((e) => e.memberId),
    ),
    describeTiers(
      db,
      all.flatMap((e) => (e.hit ? [e.hit.tierId] : [])),
    ),
  ]);
  const memberId = shop.member.id;
  const toLine = (entry: RankingEntry): BoardLine => {
    const tier = entry.hit ? tiers.get(entry.hit.tierId) : undefined;
    return {
      place: entry.place,
      name: names.get(entry.memberId) ?? '会員',
      score: entry.score,
      mine: entry.memberId === memberId,
      hit: tier ? { label: tier.label, cardName: tier.cardName, packTitle: tier.packTitle } : null,
    };
  };
  const lastDay = new Date(period.to.getTime() - 1);
  return {
    kind,
    periodLabel: kind === 'exp' ? `${md(period.from)}〜${md(lastDay)}` : md(period.from),
    lines: board.entries.map(toLine),
    me: board.me ? toLine(board.me) : null,
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
  return (
    <section aria-labelledby="board-title" className="flex flex-col gap-3 pb-24 md:pb-0">
      <h2 id="board-title" className="text-base font-black">
        {board.title}
      </h2>
      <p className="text-xs text-muted">
        集計：{board.rule}（日本時間）
        {loaderData.periodLabel ? (
          <>
            　期間：
            <b className="text-ink" data-testid="board-period">
              {loaderData.periodLabel}
            </b>
          </>
        ) : null}
      </p>
      {loaderData.kind === 'level' ? (
        <EmptyState
          title="レベルランキングはレベルの追加後に始まります"
          action={
            <AppLink to="/ranking/weekly/exp" className="text-sm font-bold text-primary-ink underline">
              今週の経験値ランキングを見る
            </AppLink>
          }
        >
          レベルはまだありません。レベルとレベルアップ報酬はメールボックスと一緒に追加し、このランキングもそのときに始まります。
        </EmptyState>
      ) : loaderData.lines.length === 0 ? (
        <EmptyState
          title={loaderData.kind === 'exp' ? '今週はまだだれも引いていません' : '今日はまだだれも引いていません'}
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
              <Line key={index} line={line} kind={loaderData.kind} />
            ))}
          </ol>
          <div className="sticky bottom-[calc(4.5rem+env(safe-area-inset-bottom))] md:bottom-3" aria-live="polite">
            {loaderData.me ? (
              <div className="rounded-2xl shadow-lg ring-2 ring-primary" data-testid="my-place">
                <p className="sr-only">あなたの順位</p>
                <Line line={loaderData.me} kind={loaderData.kind} asItem={false} />
              </div>
            ) : (
              <p
                className="rounded-2xl bg-white px-4 py-3 text-sm font-bold shadow-lg ring-1 ring-line"
                data-testid="my-place"
              >
                あなたは{loaderData.kind === 'exp' ? '今週' : '今日'}まだ引いていません。オリパを引くと順位が付きます。
              </p>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function Line({ line, kind, asItem = true }: { line: BoardLine; kind: BoardKind; asItem?: boolean }) {
  const Tag = asItem ? 'li' : 'div';
  return (
    <Tag
      className={`flex items-center gap-3 rounded-2xl px-3 py-2.5 shadow-sm ${line.mine ? 'bg-primary-soft' : 'bg-white'}`}
    >
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
          {line.name}
          {line.mine ? <span className="ml-1 text-xs text-primary-ink">（あなた）</span> : null}
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
