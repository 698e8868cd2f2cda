// The pack page's generated disclosure (decision 043): every prize with its count and conversion value, the
// 還元率 with its formula, the commitment, and once the pack is over the reveal with a verification that runs
// in the visitor's own browser (Web Crypto, verifyReveal's checks word for word: #modules/fairness/browser).
import { useState } from 'react';
import { verifyRevealInBrowser, readRevealText, type RevealVerification } from '#modules/fairness/browser';
import { Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { formatCoins } from '~/lib/numbers';
import { formatYmdHm } from '~/lib/dates';
import { packDisclosure, type DisclosedTier } from './disclosure';

export interface DisclosurePack {
  id: string;
  pricePerDraw: number;
  totalLots: number;
  commitment: string | null;
  committedAt: string | null;
  tiers: DisclosedTier[];
}

/** The reveal as the page's loader gives it: null while the pack is on sale. */
export interface DisclosureReveal {
  seed: string;
  revealedAt: string;
  draws: number;
}

const revealUrl = (gachaId: string) => `/api/v1/gachas/${gachaId}/reveal`;

/** Who receives an extra prize, in the words of the line-up. */
function extraNote(tier: DisclosedTier): string | null {
  if (tier.kiribanAt?.length) return `${tier.kiribanAt.map((k) => `${formatCoins(k)}口目`).join('・')}を引いた方`;
  if (tier.isLastOne) return '最後の1口を引いた方';
  return null;
}

/** 排出内訳と還元率: the prizes, their counts and values, and the 還元率 with its formula in words. */
export function PrizeDisclosure({ pack }: { pack: DisclosurePack }) {
  const numbers = packDisclosure(pack.tiers, pack.pricePerDraw, pack.totalLots);
  const lotTiers = pack.tiers.filter((t) => !extraNote(t));
  const extraTiers = pack.tiers.filter((t) => extraNote(t));
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
      </p>
      <div className="-mx-1 overflow-x-auto">
        <table className="w-full border-collapse text-left text-xs">
          <caption className="sr-only">賞ごとの本数と交換価値</caption>
          <thead>
            <tr className="border-b border-line text-muted">
              <th scope="col" className="px-1 py-1.5 font-bold">
                賞・カード
              </th>
              <th scope="col" className="px-1 py-1.5 text-right font-bold">
                本数
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
                <td className="whitespace-nowrap px-1 py-1.5 text-right">{formatCoins(tier.quantity)}口</td>
                <td className="whitespace-nowrap px-1 py-1.5 text-right">{formatCoins(tier.conversionValue)}コイン</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="font-bold">
              <th scope="row" className="px-1 py-1.5">
                口の合計
              </th>
              <td className="whitespace-nowrap px-1 py-1.5 text-right">{formatCoins(pack.totalLots)}口</td>
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
                  <span className="block text-muted">{extraNote(tier)}にプレゼント</span>
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

type VerifierState =
  | { step: 'idle' }
  | { step: 'running' }
  | { step: 'done'; result: RevealVerification; matchesPage: boolean | null }
  | { step: 'error'; message: string };

/**
 * Fetches the reveal file and verifies it here, in the browser: nothing is computed or judged by the shop.
 * Besides verifyReveal's checks, the file's commitment must be the one this page has shown since the sale.
 */
function BrowserVerifier({ gachaId, commitment }: { gachaId: string; commitment: string }) {
  const [state, setState] = useState<VerifierState>({ step: 'idle' });
  const run = async () => {
    setState({ step: 'running' });
    if (!globalThis.crypto?.subtle) {
      setState({
        step: 'error',
        message:
          'このブラウザでは暗号機能（Web Crypto）が使えないため検証できません。別のブラウザか、検証用ファイルと verify-pack をお使いください。',
      });
      return;
    }
    let text: string;
    try {
      const response = await fetch(revealUrl(gachaId), { headers: { accept: 'application/json' } });
      if (!response.ok) {
        setState({
          step: 'error',
          message: `検証用ファイルを取得できませんでした（HTTP ${response.status}）。時間をおいてもう一度お試しください。`,
        });
        return;
      }
      text = await response.text();
    } catch {
      setState({
        step: 'error',
        message: '検証用ファイルを取得できませんでした。通信環境を確認して、もう一度お試しください。',
      });
      return;
    }
    const read = readRevealText(text);
    if (!read.ok) {
      setState({ step: 'error', message: `検証用ファイルを読み込めません: ${read.error}` });
      return;
    }
    try {
      const result = await verifyRevealInBrowser(read.value);
      const file = read.value as { commitment?: unknown; gacha?: { id?: unknown } };
      // Only a well-formed file (stats present) is compared with the page.
      const matchesPage = result.stats ? file.commitment === commitment && file.gacha?.id === gachaId : null;
      setState({ step: 'done', result, matchesPage });
    } catch (error) {
      setState({ step: 'error', message: `検証を実行できませんでした（${(error as Error).message}）` });
    }
  };

  const checks =
    state.step === 'done'
      ? [
          ...(state.matchesPage === null
            ? []
            : [
                {
                  name: 'このページのコミットメントとの一致',
                  ok: state.matchesPage,
                  detail: state.matchesPage
                    ? 'ファイルのコミットメントは、このページで販売前から公開しているものと同じです'
                    : 'ファイルのコミットメント（またはオリパ）が、このページで公開しているものと違います',
                },
              ]),
          ...state.result.checks,
        ]
      : [];
  const failed = checks.filter((c) => !c.ok).length;
  const passed = state.step === 'done' && failed === 0;

  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="secondary"
        fullWidth
        loading={state.step === 'running'}
        onClick={() => void run()}
        className="sm:w-auto sm:self-start"
      >
        このブラウザで検証する
      </Button>
      <div aria-live="polite" aria-atomic="false" className="flex flex-col gap-2" data-testid="browser-verification">
        {state.step === 'running' && (
          <p className="text-muted">検証しています…（全口の並びをシードから計算し直しています）</p>
        )}
        {state.step === 'error' && (
          <p className="rounded-lg bg-red-50 p-2 font-bold text-red-800" data-testid="browser-verification-error">
            {state.message}
          </p>
        )}
        {state.step === 'done' && (
          <>
            <p
              className={`rounded-lg p-2 font-black ${passed ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
              data-testid="browser-verification-result"
            >
              {passed
                ? `検証成功：${checks.length} 項目すべてに合格しました。口の中身と並び順は販売前に固定されていました。`
                : `検証失敗：${checks.length} 項目中 ${failed} 項目が不合格です。`}
            </p>
            <ul className="flex flex-col gap-1" aria-label="検証項目">
              {checks.map((check) => (
                <li key={check.name} className="flex gap-2" data-check-ok={check.ok}>
                  <span aria-hidden="true" className={`font-black ${check.ok ? 'text-emerald-700' : 'text-red-700'}`}>
                    {check.ok ? '✓' : '✗'}
                  </span>
                  <span className="min-w-0 break-words">
                    <b>{check.name}</b>
                    <span className="sr-only">{check.ok ? '（合格）' : '（不合格）'}</span>：{check.detail}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}

/** 公平性の証明: the commitment explained, and after the end the reveal with the browser verification. */
export function FairnessProof({ pack, reveal }: { pack: DisclosurePack; reveal: DisclosureReveal | null }) {
  if (!pack.commitment) return null;
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
          コミットメント（{pack.committedAt ? formatYmdHm(pack.committedAt, 'slash') : ''} 公開）
        </p>
        <code className="block break-all rounded-lg bg-canvas p-2 font-mono text-xs" data-testid="commitment">
          {pack.commitment}
        </code>
      </div>
      {reveal ? (
        <>
          <div>
            <p className="text-xs font-bold text-muted">
              公開されたシード（{formatYmdHm(reveal.revealedAt, 'slash')} 公開・抽選 {formatCoins(reveal.draws)} 回）
            </p>
            <code className="block break-all rounded-lg bg-canvas p-2 font-mono text-xs" data-testid="revealed-seed">
              {reveal.seed}
            </code>
          </div>
          <p className="text-muted">
            販売が終わったので、シードと匿名化した抽選ログを公開しました。下のボタンで、このページのコミットメントと公開されたファイルが一致するか、中身と順番がシードどおりかを、このブラウザの中だけで確かめられます（結果はショップに送られません）。
          </p>
          <BrowserVerifier gachaId={pack.id} commitment={pack.commitment} />
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
