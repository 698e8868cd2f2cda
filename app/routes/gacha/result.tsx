// /gacha/{genreId}/{gachaId}/result/{resultId} (layout gacha-result): the reveal animation, chosen
// by the best tier won and landing on it (alone on the page while it plays: decision 056), then a summary
// by tier, the cards (low tiers of a large draw collapsed into counts) and a sticky bar: 保管 (the rare
// cards first), まとめて交換 (undecided only, by tier, confirmed first, 元に戻す after it: decision 057),
// もう一度引く. Only the member who drew sees it; anyone else gets the not-found page.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { gachaEvent, track } from '~/lib/analytics';
import { useRootData } from '~/lib/root-data';
import { redirect, useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/result';
import { drawBeaconBody, shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { HeaderWallet } from '~/components/SiteHeader';
import { Reveal, type RevealItem } from '~/components/reveal';
import { PrizeChoices } from '~/components/gacha/PrizeList';

import { groupByTier, tierCountLine } from '~/components/gacha/prize-summary';
import { TIER_CHIP, drawOptionLabel } from '~/components/gacha/labels';
import { notFound } from '~/lib/not-found';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import {
  prizeChoiceAction,
  prizeRulesOf,
  withTierStanding,
  type PrizeActionData,
} from '~/controllers/prize-actions.server';
import { getDrawResult, memberPackStanding } from '#modules/draw';
import { ceilingMeter, ceilingWords, getGachaDetail } from '#modules/gacha';
import { isUuid } from '#modules/kernel';

// A beacon draw's screens carry the verifier (Ed25519, BLS12-381): loaded only for a beacon draw's page.
const beaconDraw = () => import('~/components/gacha/BeaconDraw');
const WaitForRound = lazy(() => beaconDraw().then((m) => ({ default: m.WaitForRound })));
const ProofOfDraw = lazy(() => beaconDraw().then((m) => ({ default: m.ProofOfDraw })));
const RevealCheck = lazy(() => beaconDraw().then((m) => ({ default: m.RevealCheck })));

export const handle = { title: '抽選結果' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  // An id that cannot be a result is not found for anyone; a possible one needs its member signed in.
  if (!isUuid(params.resultId)) throw notFound(url.pathname);
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(url.pathname)}`);
  const result = await getDrawResult(shop.services.db, shop.member.id, params.resultId);
  if (!result || result.gachaId !== params.gachaId) throw notFound(url.pathname);
  const pack = await getGachaDetail(shop.services.db, result.gachaId);
  if (!pack || pack.genreId !== params.genreId) throw notFound(url.pathname);
  // もう一度引く opens the same count's confirmation when the pack still offers it.
  const againCount = pack.status === 'on_sale' && pack.drawOptions.includes(result.count) ? result.count : null;
  // A 天井賞 (decision 089): the one won here, and the member's meter now, worded by the server.
  const ceiling = pack.tiers.find((t) => t.ceilingAfter);
  const ceilingLines: string[] = [];
  if (ceiling?.ceilingAfter) {
    const words = ceilingWords(ceiling.ceilingOf ?? [], pack.tiers);
    const won = result.items.filter((p) => p.ceilingNo !== null).length;
    if (won > 0) ceilingLines.push(`天井賞（${words}確定）を${won > 1 ? `${won}枚` : ''}獲得しました！`);
    if (pack.status === 'on_sale') {
      const standing = await memberPackStanding(shop.services.db, pack.id, shop.member.id);
      const meter = ceilingMeter({
        after: ceiling.ceilingAfter,
        streak: standing.ceilingStreak,
        words,
        price: pack.pricePerDraw,
      });
      if (meter) ceilingLines.push(meter);
    }
  }
  return {
    ceilingLines,
    result: { ...result, items: await withTierStanding(shop.services.db, result.items) },
    pack: { id: pack.id, title: pack.title, genreId: pack.genreId },
    againCount,
    prizeRules: prizeRulesOf(shop.services.config),
    renderedAt: new Date().toISOString(),
    // A beacon pack's draw (decision 081): the signed receipt and the public proof the phone checks.
    beacon: result.receipt ? await drawBeaconBody(shop.services, result) : null,
    // A sandbox shop's drand stand-in is trusted on its own pages only, and named as what it is.
    alsoTrust:
      shop.services.config.devToolsEnabled && shop.services.beacon
        ? [{ ...shop.services.beacon.chain, label: '開発用の drand の代役（このショップはサンドボックスです）' }]
        : [],
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return prizeChoiceAction(context.get(shopRequestContext), request);
}

export default function GachaResult({ loaderData, actionData }: Route.ComponentProps) {
  const { result, pack, againCount, beacon, alsoTrust, ceilingLines } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [revealing, setRevealing] = useState(params.get('reveal') === '1');
  useEffect(() => setRevealing(params.get('reveal') === '1'), [params]); // a settled beacon draw comes back so
  const memberId = useRootData()?.member?.id;
  useEffect(() => {
    // The gacha event, once per draw: on the first view, the one that plays the reveal.
    if (params.get('reveal') === '1' && memberId) track(gachaEvent(memberId, pack.id));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result.drawId]);
  // A prize carries every field the reveal needs.
  const items: RevealItem[] = result.items;
  const resultHref = `/gacha/${pack.genreId}/${pack.id}/result/${result.drawId}`;
  const finishReveal = () => {
    setRevealing(false);
    // The animation plays once: a reload or a shared link shows the cards directly.
    navigate(resultHref, { replace: true, preventScrollReset: true });
  };
  const packHref = `/gacha/${pack.genreId}/${pack.id}`;
  const fresh = params.get('reveal') === '1';
  // 抽選中: the draw waits for its drand round (nothing to reveal yet); the screen checks what it can meanwhile.
  if (beacon && !beacon.settled)
    return (
      <Suspense fallback={<p role="status">抽選中…</p>}>
        <WaitForRound beacon={beacon} resultHref={resultHref} fresh={fresh} alsoTrust={alsoTrust} />
      </Suspense>
    );
  const groups = groupByTier(result.items);
  const best = groups[0];
  const totalValue = result.items.reduce((sum, p) => sum + p.conversionValue, 0);
  const undecided = result.items.filter((p) => p.status === 'pending').length;
  // While the reveal plays, the page holds nothing of the result: not hidden under the overlay, not
  // rendered at all (decision 056). It is rendered when the reveal ends or is skipped.
  if (revealing)
    return (
      <PlayReveal items={items} onDone={finishReveal} resultHref={resultHref}>
        {/* A beacon draw: the phone checks it while the cards turn, and shows its verdict here (decision 081). */}
        {beacon && (
          <Suspense fallback={null}>
            <RevealCheck beacon={beacon} fresh={fresh} items={result.items} alsoTrust={alsoTrust} />
          </Suspense>
        )}
      </PlayReveal>
    );
  return (
    <>
      <header className="sticky top-0 z-header border-b border-white/10 bg-slate-900/95 pt-safe backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-2 sm:px-4">
          <AppLink
            to={packHref}
            className="flex min-h-11 min-w-11 items-center justify-center rounded-full text-white hover:bg-white/10"
            aria-label={`${pack.title}に戻る`}
            data-testid="result-back"
          >
            <span aria-hidden="true" className="text-2xl leading-none">
              ‹
            </span>
          </AppLink>
          {/* On a phone the wallet leaves little room: the pack's name comes first (the page's heading says 結果). */}
          <p className="min-w-0 flex-1 truncate text-sm font-bold">
            <span className="hidden sm:inline">抽選結果・</span>
            {pack.title}
          </p>
          <HeaderWallet tone="dark" />
        </div>
      </header>
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-4">
        <section
          aria-labelledby="result-title"
          className="flex flex-col gap-2 rounded-2xl bg-white/10 p-4"
          data-testid="result-summary"
        >
          <h1 id="result-title" className="flex flex-wrap items-center gap-2 text-xl font-black">
            {best && (
              <span className={`rounded-full px-3 py-0.5 text-base ${TIER_CHIP[best.effect] ?? TIER_CHIP.normal}`}>
                {best.label}
              </span>
            )}
            {best ? `獲得！（${result.count}件の結果）` : '抽選結果'}
          </h1>
          <p className="text-xs text-white/80">
            {drawOptionLabel(result.count)}・{formatCoins(result.cost)}コイン・
            <time dateTime={result.createdAt}>{formatMemberDateTime(result.createdAt)}</time>
          </p>
          {result.lastOne && (
            <p className="w-fit rounded-full bg-tier-last px-3 py-1 text-sm font-black text-white">
              ラストワン賞を獲得しました！
            </p>
          )}
          {result.kiriban.length > 0 && (
            <p
              className="w-fit rounded-full bg-amber-300 px-3 py-1 text-sm font-black text-amber-950"
              data-testid="kiriban-won"
            >
              キリ番賞（{result.kiriban.map((k) => `${k.toLocaleString('ja-JP')}口目`).join('・')}）を獲得しました！
            </p>
          )}
          <ExtraPrizeBadges items={result.items} lines={ceilingLines} />
          <p className="text-sm font-bold" data-testid="tier-counts">
            {tierCountLine(groups)}
          </p>
          <dl className="grid grid-cols-2 gap-2 text-center">
            <div className="rounded-xl bg-white/10 py-2">
              <dt className="text-xs text-white/80">交換価値の合計</dt>
              <dd className="text-lg font-black" data-testid="result-total-value">
                {formatCoins(totalValue)}
                <span className="text-xs">コイン</span>
              </dd>
            </div>
            <div className="rounded-xl bg-white/10 py-2">
              <dt className="text-xs text-white/80">未選択</dt>
              <dd className="text-lg font-black">
                {undecided}
                <span className="text-xs">枚</span>
              </dd>
            </div>
          </dl>
          <p className="text-xs text-white/80">
            カードをタップすると交換・保管を選べます。期限までに選ばなかったカードは自動でコインに交換されます。
          </p>
        </section>
        <h2 className="sr-only">獲得したカード</h2>
        <PrizeChoices
          prizes={result.items}
          renderedAt={loaderData.renderedAt}
          rules={loaderData.prizeRules}
          actionData={actionData as PrizeActionData | undefined}
          layout="result"
          again={againCount ? { href: `${packHref}?confirm=${againCount}`, label: drawOptionLabel(againCount) } : null}
        />
        {beacon && (
          <Suspense fallback={null}>
            <ProofOfDraw beacon={beacon} fresh={fresh} items={result.items} alsoTrust={alsoTrust} />
          </Suspense>
        )}
        <p className="pb-2 text-center text-sm">
          <AppLink to="/mypage?tab=prizes" className="font-bold text-white underline underline-offset-2">
            獲得商品をすべて見る
          </AppLink>
        </p>
      </div>
    </>
  );
}

/** The reveal alone on the page, with what it shows in its corner (a beacon draw's verdict). */
function PlayReveal({
  items,
  onDone,
  resultHref,
  children,
}: {
  items: RevealItem[];
  onDone: () => void;
  resultHref: string;
  children: ReactNode;
}) {
  return (
    <>
      <Reveal items={items} onDone={onDone} aside={children} />
      {/* Without JavaScript the cards cannot turn: the plain result page is one link away. */}
      <noscript>
        <a
          href={resultHref}
          className="fixed inset-x-4 bottom-8 z-overlay rounded-full bg-white py-3 text-center font-bold text-slate-900"
        >
          結果を見る
        </a>
      </noscript>
    </>
  );
}

const BADGE = 'w-fit rounded-full bg-amber-300 px-3 py-1 text-sm font-black text-amber-950';

/** 個人キリ番賞, ピタリ賞 (decision 088) and 天井賞 (decision 089), named like the キリ番賞 above the cards. */
function ExtraPrizeBadges({
  items,
  lines,
}: {
  items: { personalKiriban: number | null; pitariOf: string | null; tierLabel: string }[];
  /** The 天井賞's lines from the server (decision 089): an award (「…獲得しました！」) is a badge, the meter a line. */
  lines: string[];
}) {
  const personalWon = items.flatMap((p) => (p.personalKiriban == null ? [] : [p.personalKiriban]));
  const pitariWon = items.filter((p) => p.pitariOf).map((p) => p.tierLabel);
  const badge = BADGE;
  return (
    <>
      {personalWon.length > 0 && (
        <p className={badge} data-testid="personal-kiriban-won">
          個人キリ番賞（あなたの{personalWon.map((k) => `${k.toLocaleString('ja-JP')}口目`).join('・')}
          ）を獲得しました！
        </p>
      )}
      {pitariWon.length > 0 && (
        <p className={badge} data-testid="pitari-won">
          {pitariWon.join('・')}を獲得しました！
        </p>
      )}
      {lines.map((line) => (
        <p key={line} className={line.endsWith('！') ? badge : 'text-sm font-bold'}>
          {line}
        </p>
      ))}
    </>
  );
}
