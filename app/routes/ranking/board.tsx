// /ranking/daily/goodluck, /ranking/weekly/exp, /ranking/monthly/level: top 100 and the member's place.
import { useMatches } from 'react-router';
import { EmptyState } from '~/components/PageFrame';

export const handle = { title: 'ランキング' };

const BOARDS: Record<string, { title: string; rule: string }> = {
  'ranking-daily-goodluck': { title: 'デイリー 神引きランキング', rule: '今日（0時〜24時）のベストヒット：獲得カードの交換価値 ÷ 1回の価格' },
  'ranking-weekly-exp': { title: 'ウィークリー 経験値ランキング', rule: '今週（月曜〜日曜）に獲得した経験値' },
  'ranking-monthly-level': { title: 'マンスリー レベルランキング', rule: '今月に上がったレベル数（同数は経験値順）' },
};

export default function RankingBoard() {
  const matches = useMatches();
  const board = BOARDS[matches[matches.length - 1]?.id ?? ''] ?? BOARDS['ranking-daily-goodluck']!;
  return (
    <section aria-labelledby="board-title" className="flex flex-col gap-3">
      <h2 id="board-title" className="text-base font-black">{board.title}</h2>
      <p className="text-xs text-muted">集計：{board.rule}（日本時間）</p>
      <EmptyState title="まだランキングはありません">オリパを引くと、ここに上位100名とあなたの順位が表示されます。</EmptyState>
    </section>
  );
}
