// キリ番賞 on the pack page (docs/decisions/027): "次のキリ番まであと N口", live from the remaining count
// the page already follows, and every number of the pack, the ones already reached struck through.
import { formatCoins } from '~/lib/numbers';

/** The next キリ番 not yet reached and the lots to it (the same rule as modules/gacha's kiribanProgress). */
export function nextKiriban(numbers: readonly number[], sold: number): { next: number; lotsToNext: number } | null {
  const next = [...numbers].sort((a, b) => a - b).find((k) => k > sold);
  return next === undefined ? null : { next, lotsToNext: next - sold };
}

export function KiribanCounter({
  numbers,
  sold,
  closed,
}: {
  /** Every キリ番 of the pack. */
  numbers: readonly number[];
  /** Lots sold so far (total − live remaining). */
  sold: number;
  /** The sale is over: no counter, only which numbers were reached. */
  closed: boolean;
}) {
  if (numbers.length === 0) return null;
  const progress = nextKiriban(numbers, sold);
  const sorted = [...numbers].sort((a, b) => a - b);
  return (
    <section
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3"
      aria-labelledby="kiriban-title"
      data-testid="kiriban"
    >
      <h2 id="kiriban-title" className="text-sm font-black text-amber-900">
        キリ番賞あり
        <span className="ml-1 font-normal">（決まった口数目を引いた方にもう1枚プレゼント）</span>
      </h2>
      {!closed && progress ? (
        <p className="text-sm text-ink" aria-live="polite" data-testid="kiriban-next">
          次のキリ番 <b>{formatCoins(progress.next)}口目</b> まで あと{' '}
          <b className="text-xl font-black text-primary-ink" data-testid="kiriban-left">
            {formatCoins(progress.lotsToNext)}
          </b>
          口
        </p>
      ) : (
        <p className="text-sm text-ink" data-testid="kiriban-next">
          {progress ? '販売は終了しました。' : 'キリ番賞はすべて出ました。'}
        </p>
      )}
      <ul className="flex flex-wrap gap-1.5 text-xs" aria-label="キリ番の一覧">
        {sorted.map((k) => (
          <li
            key={k}
            className={`rounded-full px-2.5 py-0.5 font-bold ${k <= sold ? 'bg-white text-muted line-through' : 'bg-amber-200 text-amber-950'}`}
          >
            {formatCoins(k)}口目{k <= sold ? '（獲得済み）' : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
