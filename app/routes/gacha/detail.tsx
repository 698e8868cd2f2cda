// /gacha/{genreId}/{gachaId} (layout gacha-detail): the pack, its price and live remaining counts,
// the prize line-up, the draw buttons with their confirmation, the prizes' disclosure with the 還元率, and the
// fairness record with the in-browser verification (components/gacha/PackDisclosure).
// redirect-onepiece has already sent a pack opened under the wrong genre to its own address.
import { randomUUID } from 'node:crypto';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { rememberGachaOrigin } from '~/lib/analytics';
import type { Route } from './+types/detail';
import { shopRequestContext } from '#server/context';
import { Image } from '~/components/Image';
import { AppLink } from '~/components/AppLink';
import { Container } from '~/components/PageFrame';
import { notFound } from '~/lib/not-found';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { drawAction, type DrawActionData } from '~/controllers/draw-action.server';
import { useLiveRemaining } from '~/lib/use-live-remaining';
import { DrawPanel } from '~/components/gacha/DrawPanel';
import { TierLineup } from '~/components/gacha/TierLineup';
import { KiribanCounter } from '~/components/gacha/KiribanCounter';
import { FairnessProof, PrizeDisclosure } from '~/components/gacha/PackDisclosure';
import { PackOdds } from '~/components/gacha/PackOdds';
import { oddsOf } from '~/components/gacha/odds';
import { packDisclosure } from '~/components/gacha/disclosure';
import { getGachaDetail, headlineTier, countUnclaimed, remainingOf } from '#modules/gacha';
import { listWins, memberDrawnLots, verifiedReveal } from '#modules/draw';
import { FEED_READ, FEED_ROWS, shownWins } from '~/components/winners/feed';
import { WinnersFeed, useWinners } from '~/components/winners/WinnersFeed';
import { balanceOf, genresOf } from '~/controllers/request-reads.server';
import { rankName } from '#modules/progression';
import { isStaffRole } from '#modules/identity';
import { requireOperator } from '~/controllers/admin.server';
import { selfLimitSummaryOf } from '~/controllers/limits.server';
import { SelfLimitNotice } from '~/components/SelfLimitNotice';

export const handle = {
  title: (data: { pack: { title: string } }) => data.pack.title,
  description: (data: { pack: { description: string } }) => data.pack.description,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const { db } = shop.services;
  const url = new URL(request.url);
  let pack = await getGachaDetail(db, params.gachaId);
  // The pack editor's preview of a draft: exactly this page, for an operator with packs:write only.
  const preview = !pack && url.searchParams.get('preview') === '1';
  if (preview) {
    await requireOperator(shop, request, 'packs:write');
    pack = await getGachaDetail(db, params.gachaId, { draft: true });
  }
  if (!pack || pack.genreId !== params.genreId) throw notFound(url.pathname);
  const [genres, unclaimed, balance, drawnByMe, selfLimits, wins] = await Promise.all([
    genresOf(shop),
    // A draft has no lots yet: its preview shows every lot unclaimed, as on the day it goes on sale.
    preview
      ? Promise.resolve(
          new Map(pack.tiers.filter((t) => !t.isLastOne && !t.kiribanAt).map((t) => [t.id, t.quantity] as const)),
        )
      : countUnclaimed(db, pack.id),
    balanceOf(shop),
    shop.member && pack.perMemberLimit ? memberDrawnLots(db, pack.id, shop.member.id) : Promise.resolve(null),
    // The member's own limits (decision 035): one primary-key read, more only for a limit that is set.
    selfLimitSummaryOf(shop),
    // This pack's winners feed (a draft's preview has none; a hidden genre's pack lists none).
    preview ? Promise.resolve(null) : listWins(db, { gachaId: pack.id, limit: FEED_READ }),
  ]);
  // The pack's tiers came with it: the counts need only the one query of unclaimed lots.
  const soldOut = pack.status === 'sold_out';
  const counts = remainingOf(pack.tiers, unclaimed, soldOut);
  const confirm = Number(url.searchParams.get('confirm'));
  // The seed and time only: the verdict is the visitor's own, computed in their browser (decision 043).
  const revealed = pack.revealed ? await verifiedReveal(db, pack.id) : null;
  const reveal = revealed ? { seed: revealed.seed, revealedAt: revealed.revealedAt, draws: revealed.draws } : null;
  return {
    pack,
    genreName: genres.find((g) => g.id === pack.genreId)?.name ?? pack.genreId,
    remaining: counts.remaining,
    soldOut,
    tierRemaining: counts.tiers,
    balance: balance ? balance.total : null,
    staff: isStaffRole(shop.member?.role),
    confirmFromUrl: pack.drawOptions.includes(confirm) ? confirm : null,
    idempotencyKey: randomUUID(),
    decisionDays: shop.services.config.PRIZE_DECISION_DAYS,
    minRankName: pack.minRank ? rankName(pack.minRank) : null,
    selfLimits,
    limitLeft: pack.perMemberLimit && drawnByMe !== null ? Math.max(pack.perMemberLimit - drawnByMe, 0) : null,
    reveal,
    preview,
    // The entries of the rows shown (repeats collapse into one row: decision 059).
    wins: wins ? shownWins(wins.items, FEED_ROWS) : null,
    renderedAt: new Date().toISOString(),
    // Chosen here, so the page's script does not carry the catalogue module (and Drizzle) to the browser.
    headlineTierId: headlineTier(pack.tiers)?.id ?? null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return drawAction(context.get(shopRequestContext), request, params);
}

export default function GachaDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { pack, genreName } = loaderData;
  const feed = useWinners(loaderData.wins ?? NO_WINS, loaderData.renderedAt);
  const live = useLiveRemaining(
    pack.id,
    {
      remaining: loaderData.remaining,
      soldOut: loaderData.soldOut,
      tiers: loaderData.tierRemaining,
    },
    (entry) => feed.add(entry, false),
  );
  const onSale = pack.status === 'on_sale' && !live.soldOut && live.remaining > 0;
  const drawn = pack.totalLots - live.remaining;
  const ratio = pack.totalLots > 0 ? live.remaining / pack.totalLots : 0;
  const error = (actionData as DrawActionData | undefined)?.error ?? null;
  const lastOne = pack.tiers.find((t) => t.isLastOne);
  const kiribanNumbers = pack.tiers.flatMap((t) => t.kiribanAt ?? []);
  const headline = pack.tiers.find((t) => t.id === loaderData.headlineTierId) ?? null;
  // Each tier's odds now, from the live counts (decision 059): the same for every visitor, so cacheable.
  const odds = oddsOf(pack.tiers, live.tiers, live.remaining, pack.totalLots);
  // Sold out by the stream as soon as the final lot goes, not only on the next load.
  const closed: 'sold_out' | 'ended' | null =
    pack.status === 'sold_out' || live.soldOut || (pack.status === 'on_sale' && live.remaining === 0)
      ? 'sold_out'
      : pack.status === 'ended'
        ? 'ended'
        : null;
  const panel = {
    gachaId: pack.id,
    price: pack.pricePerDraw,
    options: pack.drawOptions,
    remaining: live.remaining,
    onSale,
    balance: loaderData.balance,
    confirmFromUrl:
      loaderData.confirmFromUrl ??
      (error ? Number((error.details as { count?: number } | undefined)?.count ?? 0) || null : null),
    idempotencyKey: loaderData.idempotencyKey,
    staff: loaderData.staff,
    error,
    selfLimits: loaderData.selfLimits,
    closedReason: loaderData.preview
      ? 'プレビューです。公開前のため引けません。'
      : closed === 'sold_out'
        ? '完売しました。もう引けません。'
        : closed === 'ended'
          ? '販売を終了しました。もう引けません。'
          : null,
  };
  const location = useLocation();
  useEffect(() => {
    const from = (location.state as { from?: string } | null)?.from;
    rememberGachaOrigin(pack.id, from ?? (document.referrer ? safePath(document.referrer) : null));
  }, [pack.id, location.state]);
  return (
    <Container className="flex flex-col gap-5">
      {loaderData.preview ? (
        <p
          role="status"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-bold text-amber-900"
        >
          プレビュー（未公開の下書き）です。会員にはまだ表示されません。{' '}
          <a href={`/admin/packs/${pack.id}?step=review`} className="underline">
            編集に戻る
          </a>
        </p>
      ) : null}
      <nav aria-label="パンくずリスト" className="text-xs text-muted">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <AppLink to="/" className="hover:underline">
              トップ
            </AppLink>
          </li>
          <li aria-hidden="true">›</li>
          <li>
            <AppLink to={`/gacha/${pack.genreId}`} className="hover:underline">
              {genreName}
            </AppLink>
          </li>
          <li aria-hidden="true">›</li>
          <li aria-current="page" className="line-clamp-1 text-ink">
            {pack.title}
          </li>
        </ol>
      </nav>
      <div className="grid gap-5 md:grid-cols-2">
        <div className="relative self-start overflow-hidden rounded-2xl bg-white shadow-sm">
          <Image
            src={pack.imagePath}
            alt={pack.title}
            width={1200}
            height={900}
            sizes="(min-width: 768px) 50vw, 100vw"
            priority
            className="aspect-[4/3] h-auto w-full object-cover"
          />
          {closed && (
            <div className="absolute inset-0 flex items-center justify-center bg-black/55" data-testid="sold-out-mark">
              <span className="-rotate-6 rounded-lg border-4 border-white px-4 py-1.5 text-center text-2xl font-black tracking-widest text-white sm:text-3xl">
                {closed === 'sold_out' ? 'SOLD OUT' : 'CLOSED'}
                <span className="block text-sm tracking-normal">{closed === 'sold_out' ? '完売' : '販売終了'}</span>
              </span>
            </div>
          )}
          {headline && (
            <div
              className="absolute bottom-2 z-[1] left-2 right-2 flex items-center gap-2 rounded-xl bg-black/70 p-2 text-white"
              data-testid="hero-headline"
            >
              <Image
                src={headline.cardImagePath}
                alt=""
                width={48}
                height={67}
                className="h-[67px] w-12 shrink-0 rounded object-cover"
              />
              <p className="min-w-0 text-xs leading-snug">
                <span className="font-bold">目玉賞品</span>
                <span className="block truncate text-sm font-black">
                  {headline.label} {headline.cardName}
                </span>
              </p>
            </div>
          )}
        </div>
        <section className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" aria-labelledby="pack-title">
          <h1 id="pack-title" className="text-xl font-black leading-snug">
            {pack.title}
          </h1>
          {closed && (
            <p
              className="rounded-xl bg-slate-800 px-4 py-3 text-sm font-bold text-white"
              role="status"
              data-testid="sold-out-notice"
            >
              {closed === 'sold_out' ? '完売しました。' : '販売を終了しました。'}
              <span className="font-normal">
                このオリパはもう引けません。{pack.revealed ? '中身の検証は下の「公平性の証明」でできます。' : ''}
              </span>
            </p>
          )}
          {pack.description && <p className="text-sm text-muted">{pack.description}</p>}
          <p className="text-2xl font-black text-primary-ink" data-testid="pack-price">
            {formatCoins(pack.pricePerDraw)}
            <span className="text-sm">コイン</span>
            <span className="text-sm font-bold text-muted"> / 1回</span>
          </p>
          <PackOdds
            odds={odds}
            returnRate={packDisclosure(pack.tiers, pack.pricePerDraw, pack.totalLots).returnRate}
            closed={closed !== null}
          />
          <dl className="grid grid-cols-3 gap-2 text-center" aria-live="polite">
            {[
              ['総口数', pack.totalLots, 'total'],
              ['残り口数', live.remaining, 'remaining'],
              ['消化口数', drawn, 'drawn'],
            ].map(([label, value, id]) => (
              <div key={id} className="rounded-xl bg-canvas py-2">
                <dt className="text-xs text-muted">{label}</dt>
                <dd className="text-base font-black" data-testid={`pack-${id}`}>
                  {formatCoins(value as number)}
                </dd>
              </div>
            ))}
          </dl>
          <div
            className="h-2 overflow-hidden rounded-full bg-canvas"
            role="progressbar"
            aria-label="残り口数"
            aria-valuemin={0}
            aria-valuemax={pack.totalLots}
            aria-valuenow={live.remaining}
          >
            <div
              className={`h-full rounded-full transition-[width] duration-500 ${ratio < 0.2 ? 'bg-red-500' : 'bg-primary'}`}
              style={{ width: `${Math.round(ratio * 100)}%` }}
            />
          </div>
          <ul className="flex flex-wrap gap-2 text-xs text-muted">
            {closed && (
              <li className="rounded-full bg-slate-800 px-2.5 py-1 font-bold text-white">
                {closed === 'sold_out' ? '完売' : '販売終了'}
              </li>
            )}
            {lastOne && (
              <li className="rounded-full border border-primary-ink bg-white px-2.5 py-1 font-bold text-primary-ink">
                ラストワン賞あり
              </li>
            )}
            {pack.perMemberLimit && (
              <li className="rounded-full bg-canvas px-2.5 py-1">
                お一人様{formatCoins(pack.perMemberLimit)}口まで
                {loaderData.limitLeft !== null ? `（あと${formatCoins(loaderData.limitLeft)}口）` : ''}
              </li>
            )}
            {loaderData.minRankName && (
              <li className="rounded-full bg-canvas px-2.5 py-1">{loaderData.minRankName}ランク以上限定</li>
            )}
            {pack.saleEndsAt && (
              <li className="rounded-full bg-canvas px-2.5 py-1">販売終了 {formatMemberDateTime(pack.saleEndsAt)}</li>
            )}
            {kiribanNumbers.length > 0 && (
              <li className="rounded-full border border-amber-600 bg-white px-2.5 py-1 font-bold text-amber-900">
                キリ番賞あり
              </li>
            )}
            {live.live && !closed && (
              <li className="rounded-full bg-emerald-50 px-2.5 py-1 text-emerald-800">残り口数をリアルタイム表示中</li>
            )}
          </ul>
          <KiribanCounter numbers={kiribanNumbers} sold={drawn} closed={closed !== null} />
          {loaderData.balance !== null && (
            <p className="text-sm">
              所持コイン <b data-testid="balance">{formatCoins(loaderData.balance)}</b>　
              <AppLink to="/shop" className="font-bold text-primary-ink underline">
                コインを購入
              </AppLink>
            </p>
          )}
          <SelfLimitNotice summary={loaderData.selfLimits} show={['draw', 'purchase']} />
          <div className="hidden md:block">
            <DrawPanel {...panel} />
          </div>
        </section>
      </div>
      <section aria-labelledby="lineup" className="flex flex-col gap-3">
        <h2 id="lineup" className="text-lg font-black">
          ラインナップ
        </h2>
        <TierLineup tiers={pack.tiers} remaining={live.tiers} />
      </section>
      {loaderData.wins ? (
        <WinnersFeed entries={feed.entries} now={feed.now} announcement={feed.announcement} withPack={false} />
      ) : null}
      <PrizeDisclosure pack={pack} odds={odds} remaining={live.remaining} />
      <FairnessProof pack={pack} reveal={loaderData.reveal} />
      <section
        aria-labelledby="notes"
        className="rounded-2xl bg-white p-5 text-sm leading-relaxed text-muted shadow-sm"
      >
        <h2 id="notes" className="mb-2 text-base font-black text-ink">
          注意事項
        </h2>
        <ul className="ml-5 list-disc space-y-1">
          <li>ハズレはありません。すべての口にカードが入っています。</li>
          <li>カードの状態は中古品のため、多少の傷や汚れがある場合があります。</li>
          <li>画像はイメージです。実際の商品と異なる場合があります。</li>
          <li>抽選後のキャンセル・返品はできません。</li>
          <li>
            獲得したカードは{loaderData.decisionDays}
            日以内にコイン交換か発送用の保管を選べます。期限を過ぎると自動でコインに交換されます。保管したカードは獲得商品から発送を申し込めます。
          </li>
        </ul>
      </section>
      <div className="fixed inset-x-0 bottom-0 z-tabbar border-t border-line bg-white p-3 pb-safe md:hidden">
        <p className="mb-2 flex justify-between text-xs text-muted">
          <span>
            <b className="text-primary-ink">{formatCoins(pack.pricePerDraw)}コイン</b> / 1回
          </span>
          {closed ? (
            <b className="text-ink">{closed === 'sold_out' ? '完売：もう引けません' : '販売終了：もう引けません'}</b>
          ) : (
            <span>
              残り {formatCoins(live.remaining)} / {formatCoins(pack.totalLots)}口
            </span>
          )}
        </p>
        <DrawPanel {...panel} compact />
      </div>
    </Container>
  );
}

/** A preview's feed: one array for every render (a new [] each time would reset the feed's state). */
const NO_WINS: [] = [];

/** The path of a same-site referrer, or null. */
function safePath(referrer: string): string | null {
  try {
    const url = new URL(referrer);
    return url.origin === window.location.origin ? url.pathname : null;
  } catch {
    return null;
  }
}
