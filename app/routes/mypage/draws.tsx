// /mypage/draws (当選履歴): the member's own draws, newest first, filtered by pack, period and hits
// (上位賞・キリ番賞・ラストワン賞), 20 a page; a draw of a finished pack shows its proof (seed, commitment,
// the lot numbers it took) and how to verify it. Members only; another member's draws never appear.
import { Form } from 'react-router';
import type { Route } from './+types/draws';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { AppLink } from '~/components/AppLink';
import { Button } from '~/components/Button';
import { CardThumb } from '~/components/winners/WinnersFeed';
import { TIER_CHIP, drawOptionLabel } from '~/components/gacha/labels';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { drawHistoryLoader } from '~/controllers/draw-history.server';

export const handle = { title: '当選履歴' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return drawHistoryLoader(context.get(shopRequestContext), request);
}

const PERIODS = [
  { value: 'all', label: 'すべての期間' },
  { value: '7d', label: '7日以内' },
  { value: '30d', label: '30日以内' },
  { value: '90d', label: '90日以内' },
] as const;
const HITS = [
  { value: 'all', label: 'すべての抽選' },
  { value: 'top', label: '上位賞のみ' },
  { value: 'kiriban', label: 'キリ番・ピタリ・天井賞' },
  { value: 'lastone', label: 'ラストワン賞' },
] as const;

const select = 'min-h-12 w-full rounded-xl border border-line bg-white px-3 text-base';

export default function DrawHistory({ loaderData }: Route.ComponentProps) {
  const { filter, packs, items, next, paged } = loaderData;
  const filtered = Boolean(filter.gachaId) || filter.period !== 'all' || filter.hits !== 'all';
  return (
    <>
      <PageHeading
        title="当選履歴"
        lead="あなたの抽選と獲得したカードの記録です。完売・販売終了したオリパの抽選は、その結果が公正だったことを確かめられます。"
      />
      <Form
        method="get"
        className="mb-4 grid gap-3 rounded-2xl bg-white p-4 shadow-sm sm:grid-cols-4"
        aria-label="絞り込み"
      >
        <label className="flex flex-col gap-1 text-sm font-bold">
          オリパ
          <select name="pack" defaultValue={filter.gachaId ?? ''} className={select}>
            <option value="">すべてのオリパ</option>
            {packs.map((pack) => (
              <option key={pack.gachaId} value={pack.gachaId}>
                {pack.gachaTitle}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-bold">
          期間
          <select name="period" defaultValue={filter.period} className={select}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-bold">
          当たり
          <select name="hits" defaultValue={filter.hits} className={select}>
            {HITS.map((h) => (
              <option key={h.value} value={h.value}>
                {h.label}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-end">
          <Button type="submit" size="lg" fullWidth>
            絞り込む
          </Button>
        </div>
      </Form>
      {items.length === 0 ? (
        <EmptyState title={paged ? 'これより前の抽選はありません' : '該当する抽選はありません'}>
          {filtered ? '条件を変えてお試しください。' : 'オリパを引くと、ここに記録されます。'}
        </EmptyState>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="抽選の一覧">
          {items.map((item) => (
            <li
              key={item.drawId}
              className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm"
              data-testid="draw-item"
            >
              <p className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
                <time dateTime={item.createdAt}>{formatMemberDateTime(item.createdAt)}</time>
                <span>
                  {drawOptionLabel(item.count)}・{formatCoins(item.cost)}コイン
                </span>
              </p>
              <AppLink
                to={item.genreId ? `/gacha/${item.genreId}/${item.gachaId}` : '/'}
                className="font-black text-ink underline-offset-2 hover:underline"
              >
                {item.gachaTitle}
              </AppLink>
              {item.lastOne || item.kiriban.length > 0 ? (
                <p className="flex flex-wrap gap-2 text-xs font-bold">
                  {item.lastOne && (
                    <span className="rounded-full bg-tier-last px-2 py-0.5 text-white">ラストワン賞</span>
                  )}
                  {item.kiriban.map((no) => (
                    <span key={no} className="rounded-full border border-amber-600 px-2 py-0.5 text-amber-900">
                      キリ番 {formatCoins(no)}口目
                    </span>
                  ))}
                </p>
              ) : null}
              <ul className="flex flex-col gap-1.5" aria-label="獲得したカード">
                {item.tiers.map((tier) => (
                  <li key={tier.tierId} className="flex items-center gap-2 text-sm">
                    {tier.top ? <CardThumb src={tier.imagePath} /> : null}
                    <span
                      className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[tier.effect] ?? TIER_CHIP.normal}`}
                    >
                      {tier.tierLabel}
                    </span>
                    <span className={`min-w-0 truncate ${tier.top ? 'font-bold' : ''}`}>{tier.cardName}</span>
                    <span className="ml-auto shrink-0 text-muted">×{formatCoins(tier.count)}</span>
                  </li>
                ))}
              </ul>
              <DrawProof item={item} />
            </li>
          ))}
        </ol>
      )}
      {next ? (
        <p className="mt-4 text-center">
          <AppLink to={next} className="font-bold text-primary-ink underline">
            さらに前の抽選を見る
          </AppLink>
        </p>
      ) : null}
      {paged ? (
        <p className="mt-2 text-center text-sm">
          <AppLink to="/mypage/draws" className="text-primary-ink underline">
            最新の抽選に戻る
          </AppLink>
        </p>
      ) : null}
    </>
  );
}

type HistoryItem = Route.ComponentProps['loaderData']['items'][number];

function DrawProof({ item }: { item: HistoryItem }) {
  if (!item.proof) {
    return (
      <p className="text-xs text-muted">
        このオリパは販売中です。完売または販売終了後に、この抽選の証明（シード）が公開されます。
      </p>
    );
  }
  const { proof } = item;
  const packPage = item.genreId ? `/gacha/${item.genreId}/${item.gachaId}#fairness` : null;
  return (
    <details className="rounded-xl bg-canvas p-3 text-xs" data-testid="draw-proof">
      <summary className="cursor-pointer text-sm font-bold text-primary-ink">この抽選の証明を見る</summary>
      <dl className="mt-2 flex flex-col gap-2">
        <div>
          <dt className="font-bold text-muted">
            コミットメント（{formatMemberDateTime(proof.committedAt)} 公開・SHA-256）
          </dt>
          <dd>
            <code className="block break-all font-mono">{proof.commitment}</code>
          </dd>
        </div>
        <div>
          <dt className="font-bold text-muted">公開されたシード</dt>
          <dd>
            <code className="block break-all font-mono" data-testid="proof-seed">
              {proof.seed}
            </code>
          </dd>
        </div>
        <div>
          <dt className="font-bold text-muted">あなたが引いた口の番号（{formatCoins(proof.positions.length)}口）</dt>
          <dd className="break-all font-mono" data-testid="proof-positions">
            {proof.positions.length > 0 ? proof.positions.join(', ') : 'なし（ラストワン賞・キリ番賞のみ）'}
          </dd>
        </div>
      </dl>
      <ol className="mt-3 ml-4 list-decimal space-y-1 text-muted">
        <li>販売開始前に公開したコミットメントは、シードと全口の並びから計算したハッシュ値です。</li>
        <li>
          公開されたシードから全口の並び（何番の口にどの賞が入っているか）が決まり、同じコミットメントになることで、並びが途中で変えられていないと分かります。
        </li>
        <li>検証用ファイルの抽選ログで、上の番号の口があなたの抽選に割り当てられていることを確認できます。</li>
      </ol>
      <p className="mt-2 text-muted">
        <a
          href={`/api/v1/gachas/${item.gachaId}/reveal`}
          download={`${item.gachaId}-reveal.json`}
          className="font-bold text-primary-ink underline"
        >
          検証用ファイル（JSON）
        </a>
        をダウンロードし、<code className="font-mono">npm run verify-pack -- ファイル名</code> で検証できます。
        {packPage ? (
          <>
            {' '}
            <AppLink to={packPage} className="font-bold text-primary-ink underline">
              オリパのページの「公平性の証明」
            </AppLink>
            でも結果を確認できます。
          </>
        ) : null}
      </p>
    </details>
  );
}
