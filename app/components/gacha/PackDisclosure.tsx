// The pack page's generated disclosure (decision 043): every prize with its count and conversion value, the
// 還元率 with its formula, the commitment, and once the pack is over the reveal with a verification that runs
// in the visitor's own browser (Web Crypto, verifyReveal's checks word for word: #modules/fairness/browser).
import { lazy, Suspense } from 'react';
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { packDisclosure, type DisclosedTier } from './disclosure';
import type { TierOdds } from './odds';

export interface DisclosurePack {
  id: string;
  pricePerDraw: number;
  totalLots: number;
  commitment: string | null;
  committedAt: string | null;
  /** How the lots are decided (decision 081); absent means the sequence mode. */
  drawMode?: 'sequence' | 'beacon';
  tiers: DisclosedTier[];
}

/** The reveal as the page's loader gives it: null while the pack is on sale. */
export interface DisclosureReveal {
  seed: string;
  revealedAt: string;
  draws: number;
}

const revealUrl = (gachaId: string) => `/api/v1/gachas/${gachaId}/reveal`;

// Shown only once a pack is over: its code (and the verifier's) is not part of a pack on sale's first load.
const BrowserVerifier = lazy(() => import('./BrowserVerifier'));
// Only a beacon pack's page needs its words (decision 081): a chunk of their own.
const BeaconFairness = lazy(() => import('./BeaconFairness'));

/**
 * 排出内訳と還元率: the prizes, their counts, remaining lots, probabilities (now and at the start) and values,
 * and the 還元率 with its formula in words. `odds` and `remaining` are the page's live counts (decision 059).
 */
export function PrizeDisclosure({
  pack,
  odds,
  remaining,
}: {
  pack: DisclosurePack;
  odds: TierOdds[];
  remaining: number;
}) {
  const numbers = packDisclosure(pack.tiers, pack.pricePerDraw, pack.totalLots);
  const oddsById = new Map(odds.map((o) => [o.id, o]));
  const lotTiers = pack.tiers.filter((t) => !t.extraNote);
  const extraTiers = pack.tiers.filter((t) => t.extraNote);
  return (
    <section
      aria-labelledby="disclosure"
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 text-sm shadow-sm sm:p-5"
      data-testid="prize-disclosure"
    >
      <h2 id="disclosure" className="text-base font-black">
        排出内訳と還元率
      </h2>
      <p className="text-muted">
        全{formatCoins(pack.totalLots)}口の中身です。すべての口に賞が入っていて、ハズレ（空くじ）はありません。
        交換価値は、当たったカードをコインに交換するときのコイン数です。
        {'確率は次の1口がその賞になる確率（その賞の残り口数 ÷ 全体の残り口数、小数第2位以下切り捨て。' +
          '0.1%に満たないときは「0.1%未満」）で、残り口数とともにリアルタイムで変わります。（ ）内は販売開始時の確率です。'}
      </p>
      <div className="-mx-1 overflow-x-auto">
        <table className="w-full border-collapse text-left text-xs">
          <caption className="sr-only">賞ごとの残り・本数、確率と交換価値</caption>
          <thead>
            <tr className="border-b border-line text-muted">
              <th scope="col" className="px-1 py-1.5 font-bold">
                賞・カード
              </th>
              <th scope="col" className="px-1 py-1.5 text-right font-bold">
                残り/本数
              </th>
              <th scope="col" className="px-1 py-1.5 text-right font-bold">
                確率<span className="block font-normal">（当初）</span>
              </th>
              <th scope="col" className="px-1 py-1.5 text-right font-bold">
                交換価値
              </th>
            </tr>
          </thead>
          <tbody>
            {lotTiers.map((tier) => (
              <tr key={tier.id} className="border-b border-line align-top" data-tier-id={tier.id}>
                <th scope="row" className="px-1 py-1.5 font-normal">
                  <b className="block">{tier.label}</b>
                  <span className="break-words">{tier.cardName}</span>
                </th>
                <td className="whitespace-nowrap px-1 py-1.5 text-right" data-testid="disclosure-left">
                  {formatCoins(oddsById.get(tier.id)?.left ?? 0)}/{formatCoins(tier.quantity)}口
                </td>
                <td className="whitespace-nowrap px-1 py-1.5 text-right" data-testid="disclosure-odds">
                  <b>{remaining > 0 ? (oddsById.get(tier.id)?.odds ?? '—') : '—'}</b>
                  <span className="block text-muted">（{oddsById.get(tier.id)?.initial ?? '—'}）</span>
                </td>
                <td className="whitespace-nowrap px-1 py-1.5 text-right">{formatCoins(tier.conversionValue)}コイン</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="font-bold">
              <th scope="row" className="px-1 py-1.5">
                口の合計
              </th>
              <td className="whitespace-nowrap px-1 py-1.5 text-right">
                {formatCoins(remaining)}/{formatCoins(pack.totalLots)}口
              </td>
              <td className="whitespace-nowrap px-1 py-1.5 text-right">{remaining > 0 ? '100%' : '—'}</td>
              <td className="whitespace-nowrap px-1 py-1.5 text-right" data-testid="lot-value-total">
                {formatCoins(numbers.lotValueCoins)}コイン
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      {extraTiers.length > 0 && (
        <div>
          <h3 className="mb-1 text-xs font-bold text-muted">口とは別にもらえる賞</h3>
          <ul className="flex flex-col gap-1 text-xs">
            {extraTiers.map((tier) => (
              <li key={tier.id} className="flex flex-wrap justify-between gap-x-2" data-tier-id={tier.id}>
                <span className="min-w-0">
                  <b>{tier.label}</b> {tier.cardName}
                  <span className="block text-muted">{tier.extraNote}にプレゼント</span>
                </span>
                <span className="whitespace-nowrap">
                  {formatCoins(tier.quantity)}本・{formatCoins(tier.conversionValue)}コイン
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="rounded-xl bg-canvas p-3">
        <p className="font-bold">
          還元率{' '}
          <span className="text-xl font-black" data-testid="return-rate">
            {numbers.returnRate === null ? '—' : `${numbers.returnRate}%`}
          </span>
        </p>
        <p className="mt-1 text-xs text-muted">
          還元率 ＝ 全口の交換価値の合計 ÷（1回の価格 × 総口数）
          <br />＝ {formatCoins(numbers.lotValueCoins)}コイン ÷（{formatCoins(pack.pricePerDraw)}コイン ×{' '}
          {formatCoins(pack.totalLots)}口）
        </p>
        {numbers.returnRateWithExtras !== null && (
          <p className="mt-1 text-xs text-muted">
            口とは別にもらえる賞（{formatCoins(numbers.extraValueCoins)}コイン）も含めると{' '}
            <b className="text-ink" data-testid="return-rate-with-extras">
              {numbers.returnRateWithExtras}%
            </b>
            です。
          </p>
        )}
        <p className="mt-1 text-xs text-muted">小数第2位以下は切り捨てています。</p>
      </div>
    </section>
  );
}

/** 公平性の証明: the commitment explained, and after the end the reveal with the browser verification. */
export function FairnessProof({ pack, reveal }: { pack: DisclosurePack; reveal: DisclosureReveal | null }) {
  if (!pack.commitment) return null;
  if (pack.drawMode === 'beacon')
    return (
      <Suspense fallback={null}>
        <BeaconFairness commitment={pack.commitment} committedAt={pack.committedAt} />
      </Suspense>
    );
  return (
    <section
      aria-labelledby="fairness"
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 text-sm shadow-sm sm:p-5"
    >
      <h2 id="fairness" className="text-base font-black">
        公平性の証明
      </h2>
      <p className="text-muted">
        このオリパの全口の中身と順番は、販売開始前に秘密の乱数（シード）で決めて固定しています。下のコミットメントは、その中身と順番から計算した“指紋”（SHA-256
        ハッシュ値）です。1口でも入れ替えると指紋が変わるため、販売中にショップが中身を変えることはできません。
        抽選は、この固定された順番の前から順に口を払い出します（エラーで取り消された口は最後に回ります）。
      </p>
      <p>
        <AppLink to="/oripa-haishutsu" className="text-primary-ink underline">
          オリパの排出について（仕組みと検証のしかた）
        </AppLink>
      </p>
      <div>
        <p className="text-xs font-bold text-muted">
          コミットメント（{pack.committedAt ? formatMemberDateTime(pack.committedAt) : ''} 公開）
        </p>
        <code className="block break-all rounded-lg bg-canvas p-2 font-mono text-xs" data-testid="commitment">
          {pack.commitment}
        </code>
      </div>
      {reveal ? (
        <>
          <div>
            <p className="text-xs font-bold text-muted">
              公開されたシード（{formatMemberDateTime(reveal.revealedAt)} 公開・抽選 {formatCoins(reveal.draws)} 回）
            </p>
            <code className="block break-all rounded-lg bg-canvas p-2 font-mono text-xs" data-testid="revealed-seed">
              {reveal.seed}
            </code>
          </div>
          <p className="text-muted">
            販売が終わったので、シードと匿名化した抽選ログを公開しました。下のボタンで、このページのコミットメントと公開されたファイルが一致するか、中身と順番がシードどおりかを、このブラウザの中だけで確かめられます（結果はショップに送られません）。
          </p>
          <Suspense fallback={<p className="text-muted">検証の準備をしています…</p>}>
            <BrowserVerifier gachaId={pack.id} commitment={pack.commitment} revealHref={revealUrl(pack.id)} />
          </Suspense>
          <p className="text-muted">
            <a
              href={revealUrl(pack.id)}
              download={`${pack.id}-reveal.json`}
              className="font-bold text-primary-ink underline"
            >
              検証用ファイル（JSON）をダウンロード
            </a>
            し、<code className="font-mono">npm run verify-pack -- ファイル名</code>{' '}
            でご自身のパソコンでも検証できます。
          </p>
        </>
      ) : (
        <p className="text-muted">
          シードと抽選ログは、完売または販売終了後にこの欄で公開され、このページで誰でも検証できるようになります。
        </p>
      )}
    </section>
  );
}
