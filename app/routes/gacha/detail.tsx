// /gacha/{genreId}/{gachaId} (layout gacha-detail): the pack, its price and live remaining counts,
// the prize line-up, the draw buttons with their confirmation, the prizes' disclosure with the 還元率, the
// graded hits' certificates and original photos (components/gacha/CertifiedPrizes), and the fairness record
// with the in-browser verification (components/gacha/PackDisclosure).
// redirect-onepiece has already sent a pack opened under the wrong genre to its own address.
import { randomUUID } from 'node:crypto';
import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { rememberGachaOrigin } from '~/lib/analytics';
import type { Route } from './+types/detail';
import { catalogueDb, shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { Container } from '~/components/PageFrame';
import { notFound } from '~/lib/not-found';
import { formatCoins } from '~/lib/numbers';
import { usePersonalTexts, useRootData } from '~/lib/root-data';
import { SHELL_UNSUPPORTED_MARKER } from '#modules/kernel/personal-holes';
import { drawAction, type DrawActionData } from '~/controllers/draw-action.server';
import { useLiveRemaining } from '~/lib/use-live-remaining';
import { DrawPanel } from '~/components/gacha/DrawPanel';
import { MobileDrawBar } from '~/components/gacha/MobileDrawBar';
import { PackCounts } from '~/components/gacha/PackCounts';
import { PackClosedNotice, PackHero } from '~/components/gacha/PackHero';
import { PackBreadcrumb } from '~/components/gacha/PackBreadcrumb';
import { PackNotes } from '~/components/gacha/PackNotes';
import { TierLineup } from '~/components/gacha/TierLineup';
import { KiribanCounter } from '~/components/gacha/KiribanCounter';
import { FairnessProof, PrizeDisclosure } from '~/components/gacha/PackDisclosure';
import { PackOdds } from '~/components/gacha/PackOdds';
import { oddsOf } from '~/components/gacha/odds';
import { packDisclosure } from '~/components/gacha/disclosure';
import {
  getGachaDetail,
  headlineTier,
  countUnclaimed,
  countMemberPrizesGiven,
  remainingOf,
  extraPrizeOdds,
  isLotTier,
  personalKiribanMeter,
  ceilingMeter,
  ceilingWords,
} from '#modules/gacha';
import { listWins, memberPackStanding, verifiedReveal } from '#modules/draw';
import { FEED_READ, FEED_ROWS, shownWins } from '~/components/winners/feed';
import { WinnersFeed, useWinners } from '~/components/winners/WinnersFeed';
import { balanceOf, genresOf } from '~/controllers/request-reads.server';
import { rankName } from '#modules/progression';
import { isStaffRole } from '#modules/identity';
import { requireOperator } from '~/controllers/admin.server';
import { selfLimitSummaryOf } from '~/controllers/limits.server';
import { SelfLimitNotice } from '~/components/SelfLimitNotice';

// Only a pack with graded hits needs their proof's section (issue 33 item 8): a chunk of its own.
const CertifiedPrizes = lazy(() =>
  import('~/components/gacha/CertifiedPrizes').then((m) => ({ default: m.CertifiedPrizes })),
);
export const handle = {
  title: (data: { pack: { title: string } }) => data.pack.title,
  description: (data: { pack: { description: string } }) => data.pack.description,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  // The pack, its counts, its feed and its reveal may come from a replica that is close (decision 075); the
  // member's own reads (balance, drawn lots, limits) come from the primary.
  const { db: primary } = shop.services;
  let db = catalogueDb(shop);
  const url = new URL(request.url);
  let pack = await getGachaDetail(db, params.gachaId);
  // A pack published a moment ago may not be on the replica yet: the primary is asked before a 404.
  if (!pack && db !== primary) {
    db = primary;
    pack = await getGachaDetail(db, params.gachaId);
  }
  // The pack editor's preview of a draft: exactly this page, for an operator with packs:write only.
  const preview = !pack && url.searchParams.get('preview') === '1';
  if (preview) {
    await requireOperator(shop, request, 'packs:write');
    db = primary;
    pack = await getGachaDetail(db, params.gachaId, { draft: true });
  }
  if (!pack || pack.genreId !== params.genreId) throw notFound(url.pathname);
  // A pack with 個人キリ番賞 (decision 088) counts each member's own lots, as a per-member limit does.
  const personalNumbers = pack.tiers.flatMap((t) => t.personalKiribanAt ?? []).sort((a, b) => a - b);
  // A 天井賞 (decision 089) counts each member's lots since their last hit: the meter is the member's own.
  const ceiling = pack.tiers.find((t) => t.ceilingAfter);
  const countsMine = Boolean(pack.perMemberLimit) || personalNumbers.length > 0 || Boolean(ceiling);
  const [genres, unclaimed, given, balance, drawnByMe, selfLimits, wins] = await Promise.all([
    genresOf(shop),
    // A draft has no lots yet: its preview shows every lot unclaimed, as on the day it goes on sale.
    preview
      ? Promise.resolve({
          total: pack.totalLots,
          byTier: new Map(pack.tiers.filter(isLotTier).map((t) => [t.id, t.quantity] as const)),
        })
      : countUnclaimed(db, pack.id, pack.drawMode),
    // The 個人キリ番賞 and 天井賞 given so far (none for a pack without them, no query).
    preview ? Promise.resolve(new Map<string, number>()) : countMemberPrizesGiven(db, pack.id, pack.tiers),
    balanceOf(shop),
    shop.member && countsMine ? memberPackStanding(primary, pack.id, shop.member.id) : Promise.resolve(null),
    // The member's own limits (decision 035): one primary-key read, more only for a limit that is set.
    selfLimitSummaryOf(shop),
    // This pack's winners feed (a draft's preview has none; a hidden genre's pack lists none).
    preview ? Promise.resolve(null) : listWins(db, { gachaId: pack.id, limit: FEED_READ }),
  ]);
  // The pack's tiers came with it: the counts need only the query of unclaimed lots (and of prizes given).
  const soldOut = pack.status === 'sold_out';
  const counts = remainingOf(pack.tiers, unclaimed, soldOut, given);
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
    // The members' shell (decision 077): a member's page with no member's values (the server fills the
    // coins per member; the sheet makes its own draw key). A pack that counts each member's own lots is
    // not the same page for every member: its shell says so and each member's page is rendered for them.
    balance: shop.personalShell ? 0 : balance ? balance.total : null,
    shellUnsupported: Boolean(shop.personalShell && countsMine),
    staff: isStaffRole(shop.member?.role),
    confirmFromUrl: pack.drawOptions.includes(confirm) ? confirm : null,
    idempotencyKey: shop.personalShell ? '' : randomUUID(),
    decisionDays: shop.services.config.PRIZE_DECISION_DAYS,
    minRankName: pack.minRank ? rankName(pack.minRank) : null,
    selfLimits,
    limitLeft: pack.perMemberLimit && drawnByMe !== null ? Math.max(pack.perMemberLimit - drawnByMe.lots, 0) : null,
    // Every extra prize's condition and odds per lot (issue 34 item 3), and the member's own lots for the
    // 個人キリ番賞's meter.
    extraOdds: [
      ...extraPrizeOdds(pack.tiers, pack.totalLots).map((e) => `${e.label}（特典）${e.condition}：${e.odds}`),
      ...(pack.status === 'on_sale'
        ? [
            personalKiribanMeter(personalNumbers, drawnByMe?.lots ?? null),
            ceiling?.ceilingAfter
              ? ceilingMeter({
                  after: ceiling.ceilingAfter,
                  streak: drawnByMe?.ceilingStreak ?? null,
                  words: ceilingWords(ceiling.ceilingOf ?? [], pack.tiers),
                  price: pack.pricePerDraw,
                })
              : null,
          ]
        : []),
    ].filter((line) => line !== null),
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
  // A member's coins as the header has them (the same read; in a members' shell, this member's own).
  const wallet = useRootData()?.wallet;
  const balance = loaderData.balance === null ? null : (wallet?.total ?? loaderData.balance);
  const texts = usePersonalTexts();
  const feed = useWinners(loaderData.wins ?? NO_WINS, loaderData.renderedAt);
  const live = useLiveRemaining(
    pack.id,
    {
      remaining: loaderData.remaining,
      soldOut: loaderData.soldOut,
      tiers: loaderData.tierRemaining,
    },
    (entry) => feed.add(entry, false),
    loaderData.renderedAt,
  );
  const onSale = pack.status === 'on_sale' && !live.soldOut && live.remaining > 0;
  const drawn = pack.totalLots - live.remaining;
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
    balance,
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
      <PackBreadcrumb genreId={pack.genreId} genreName={genreName} title={pack.title} />
      <div className="grid gap-5 md:grid-cols-2">
        <PackHero imagePath={pack.imagePath} title={pack.title} closed={closed} headline={headline} />
        <section className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" aria-labelledby="pack-title">
          <h1 id="pack-title" className="text-xl font-black leading-snug">
            {pack.title}
          </h1>
          {closed && <PackClosedNotice closed={closed} revealed={pack.revealed} />}
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
            extras={loaderData.extraOdds}
          />
          <PackCounts
            totalLots={pack.totalLots}
            remaining={live.remaining}
            closed={closed}
            hasLastOne={Boolean(lastOne)}
            hasKiriban={kiribanNumbers.length > 0}
            perMemberLimit={pack.perMemberLimit}
            limitLeft={loaderData.limitLeft}
            minRankName={loaderData.minRankName}
            saleEndsAt={pack.saleEndsAt}
            streaming={live.live}
          />
          <KiribanCounter numbers={kiribanNumbers} sold={drawn} closed={closed !== null} />
          {pack.waitingRoom && <a href={`/gacha/${pack.genreId}/${pack.id}/waiting`}>待機列に並ぶ</a>}
          {import.meta.env.SSR && loaderData.shellUnsupported ? <span hidden>{SHELL_UNSUPPORTED_MARKER}</span> : null}
          {balance !== null && texts && (
            <p className="text-sm">
              所持コイン <b data-testid="balance">{texts['wallet.total']}</b>　
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
      {pack.tiers.some((t) => t.certificate || t.photo) && (
        <Suspense fallback={null}>
          <CertifiedPrizes tiers={pack.tiers} committedAt={pack.committedAt} />
        </Suspense>
      )}
      <FairnessProof pack={pack} reveal={loaderData.reveal} />
      <PackNotes decisionDays={loaderData.decisionDays} />
      <MobileDrawBar
        price={pack.pricePerDraw}
        remaining={live.remaining}
        totalLots={pack.totalLots}
        closed={closed}
        panel={panel}
      />
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
