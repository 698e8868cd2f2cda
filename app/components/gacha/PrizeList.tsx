// Prizes with their choices, for the result page and the prize box: compact cards (grouped by tier
// on a result, low tiers collapsed into counts; the rare tiers highlighted), a sheet per card (convert
// or keep, 保管 first for A賞 and better; a kept card has its own conversion with its own confirmation),
// a sticky bar for bulk choices over undecided cards only (保管 of the rare cards first, まとめて交換 by
// tier), each conversion confirmed first, and the outcome — with 元に戻す for a few seconds after a
// conversion (decision 057) — shown in the bar where the member looks.
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigation } from 'react-router';
import type { PrizeActionData, PrizeIntent } from '~/controllers/prize-actions.server';
import { isRareTier, undecidedOf, type SummaryPrize } from './prize-summary';
import { BulkConvertSheet, type PrizeRules } from './BulkConvertSheet';
import { UndoFeedback } from './UndoFeedback';
import { PrizeActionBar } from './PrizeActionBar';
import { PrizeCard, TierGroups } from './PrizeCards';
import { CancelLink, PrizeSheet } from './PrizeSheet';

export type { PrizeRules } from './BulkConvertSheet';

/** A prize as the draw module lists it (a draw's result or the prize box). */
export type PrizeView = SummaryPrize & {
  imagePath: string;
  rarity: string | null;
  cardGrade: string | null;
  decideBy: string;
  gachaTitle?: string;
};

export const PRIZE_STATUS_LABEL: Record<PrizeView['status'], string> = {
  pending: '未選択',
  kept: '発送用に保管中',
  converted: 'コイン交換済み',
  shipping: '発送手続き中',
};

/** Re-renders every 30 s so countdowns move; server and first client render agree on `now`. */
function useNow(initial: string) {
  const [now, setNow] = useState(() => Date.parse(initial));
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

type OpenSheet = { kind: 'prize'; prizeId: string; confirmKept: boolean } | { kind: 'bulk' } | null;

/** The sheet the URL opens (links work before the page's script has loaded). */
function sheetFromSearch(search: string): OpenSheet {
  const params = new URLSearchParams(search);
  if (params.get('sheet') === 'convert') return { kind: 'bulk' };
  const prizeId = params.get('prize');
  return prizeId ? { kind: 'prize', prizeId, confirmKept: params.get('confirm') === 'kept' } : null;
}

/** The current address with some query parameters set or removed. */
function withParams(pathname: string, search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export interface PrizeChoicesProps {
  prizes: PrizeView[];
  renderedAt: string;
  /** The naming rule of a conversion's confirmation, the rare tiers and the undo window (server/config.ts). */
  rules: PrizeRules;
  actionData: PrizeActionData | undefined;
  /** 'result': grouped by tier on the dark stage, with もう一度引く; 'box': a flat grid. */
  layout: 'result' | 'box';
  /** もう一度引く: the same pack with the same count's confirmation open. */
  again?: { href: string; label: string } | null;
  /** Where the sticky bar sticks (above the phone tab bar in the default layout). */
  barClassName?: string;
  /** Shown when there are no cards. */
  empty?: ReactNode;
  /** The sticky bar of bulk choices (off where nothing shown is undecided). */
  showBar?: boolean;
}

/**
 * @example <PrizeChoices prizes={result.items} renderedAt={renderedAt} rules={loaderData.prizeRules} actionData={actionData} layout="result" />
 */
export function PrizeChoices({
  prizes,
  renderedAt,
  rules,
  actionData,
  layout,
  again,
  barClassName = 'bottom-0',
  empty,
  showBar = true,
}: PrizeChoicesProps) {
  const location = useLocation();
  const navigation = useNavigation();
  const now = useNow(renderedAt);
  const [sheet, setSheet] = useState<OpenSheet>(() => sheetFromSearch(location.search));
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  const pendingIntent = busy ? (navigation.formData?.get('intent') as PrizeIntent | null) : null;
  const pendingIds = busy ? String(navigation.formData?.get('prizeIds') ?? '') : '';

  // A choice that went through closes its sheet; a refusal keeps it open with the reason.
  useEffect(() => {
    if (actionData?.ok) setSheet(null);
  }, [actionData]);
  useEffect(() => setSheet(sheetFromSearch(location.search)), [location.search]);

  const undecided = undecidedOf(prizes);
  const hrefFor = (changes: Record<string, string | null>) =>
    withParams(location.pathname, location.search, { sheet: null, prize: null, confirm: null, ...changes });
  const closeHref = hrefFor({});
  const close = () => setSheet(null);
  const openPrize = sheet?.kind === 'prize' ? (prizes.find((p) => p.prizeId === sheet.prizeId) ?? null) : null;

  const card = (prize: PrizeView, size: 'large' | 'small') => (
    <PrizeCard
      key={prize.prizeId}
      prize={prize}
      now={now}
      size={size}
      rare={isRareTier(prize, rules.aboveLowestTiers)}
      href={hrefFor({ prize: prize.prizeId })}
      onOpen={() => setSheet({ kind: 'prize', prizeId: prize.prizeId, confirmKept: false })}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      {prizes.length === 0 ? (
        empty
      ) : layout === 'result' ? (
        <TierGroups prizes={prizes} card={card} />
      ) : (
        <ul
          className="grid grid-cols-2 gap-2 min-[360px]:grid-cols-3 sm:grid-cols-4 lg:grid-cols-6"
          aria-label="カード一覧"
        >
          {prizes.map((p) => (
            <li key={p.prizeId}>{card(p, 'large')}</li>
          ))}
        </ul>
      )}

      {showBar ? (
        <PrizeActionBar
          undecided={undecided}
          rules={rules}
          layout={layout}
          again={again}
          barClassName={barClassName}
          busy={busy}
          pendingIntent={pendingIntent}
          pendingIds={pendingIds}
          actionData={actionData}
          convertHref={hrefFor({ sheet: 'convert' })}
          onOpenBulk={() => setSheet({ kind: 'bulk' })}
        />
      ) : (
        <UndoFeedback
          actionData={busy && pendingIntent !== 'undo' ? undefined : actionData}
          dark={layout === 'result'}
          busy={busy}
        />
      )}

      {sheet?.kind === 'bulk' && undecided.length > 0 && (
        <BulkConvertSheet
          undecided={undecided}
          rules={rules}
          busy={busy}
          pendingIntent={pendingIntent}
          actionData={actionData}
          onClose={close}
          cancel={<CancelLink href={closeHref} onClose={close} busy={busy} />}
        />
      )}

      {openPrize && sheet?.kind === 'prize' && (
        <PrizeSheet
          prize={openPrize}
          now={now}
          confirmKept={sheet.confirmKept}
          busy={busy}
          pendingIntent={pendingIntent}
          actionData={actionData}
          rare={isRareTier(openPrize, rules.aboveLowestTiers)}
          undoSeconds={rules.undoSeconds}
          closeHref={closeHref}
          confirmKeptHref={hrefFor({ prize: openPrize.prizeId, confirm: 'kept' })}
          onClose={close}
          onConfirmKept={() => setSheet({ kind: 'prize', prizeId: openPrize.prizeId, confirmKept: true })}
        />
      )}
    </div>
  );
}
