// Prizes with their choices, for the result page and the prize box: compact cards (grouped by tier
// on a result, low tiers collapsed into counts; the rare tiers highlighted), a sheet per card (convert
// or keep, 保管 first for A賞 and better; a kept card has its own conversion with its own confirmation),
// a sticky bar for bulk choices over undecided cards only (保管 of the rare cards first, まとめて交換 by
// tier), each conversion confirmed first, and the outcome — with 元に戻す for a few seconds after a
// conversion (decision 057) — shown in the bar where the member looks.
import { useEffect, useState, type ReactNode } from 'react';
import { Form, Link, useLocation, useNavigation } from 'react-router';
import { Image } from '~/components/Image';
import { Button, ButtonLink } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { formatCoins } from '~/lib/numbers';
import { formatRemainingShort, formatMemberDateTime, isDeadlineNear } from '#modules/kernel/dates';
import type { PrizeActionData, PrizeIntent } from '~/controllers/prize-actions.server';
import { TIER_CHIP } from './labels';
import { groupByTier, isHit, isRareTier, tierChoices, undecidedOf, type SummaryPrize } from './prize-summary';
import { BulkConvertSheet, type PrizeRules } from './BulkConvertSheet';
import { UndoFeedback } from './UndoFeedback';

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
  // The bar's まとめて交換 shows what its sheet starts with: the packs' lowest tiers only.
  const lowest = tierChoices(undecided).filter((c) => c.lowest);
  const lowestCount = lowest.reduce((n, c) => n + c.prizes.length, 0);
  const lowestTotal = lowest.reduce((n, c) => n + c.total, 0);
  // 保管 comes first for the rare cards (A賞 and better): one tap keeps exactly those.
  const rare = undecided.filter((p) => isRareTier(p, rules.aboveLowestTiers));
  const rareLabels = tierChoices(rare).map((c) => c.label);
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
        <div
          className={`sticky z-tabbar -mx-4 mt-2 border-t px-4 pt-3 pb-[calc(env(safe-area-inset-bottom)+0.75rem)] sm:mx-0 sm:rounded-2xl sm:border ${layout === 'result' ? 'border-white/15 bg-slate-900/95 text-white' : 'border-line bg-white/95 text-ink'} backdrop-blur ${barClassName}`}
          data-testid="prize-action-bar"
        >
          <UndoFeedback
            actionData={busy && pendingIntent !== 'undo' ? undefined : actionData}
            dark={layout === 'result'}
            busy={busy}
          />
          <div className={`grid gap-2 ${again ? 'grid-cols-[1.2fr_1.2fr_1fr]' : 'grid-cols-2'}`}>
            {rare.length > 0 ? (
              <Form method="post" replace preventScrollReset className="contents">
                <input type="hidden" name="intent" value="keep" />
                <input type="hidden" name="prizeIds" value={rare.map((p) => p.prizeId).join(',')} />
                <Button
                  type="submit"
                  disabled={busy}
                  loading={pendingIntent === 'keep' && pendingIds === rare.map((p) => p.prizeId).join(',')}
                  className="!min-h-12 flex-col !gap-0 !px-2 !text-sm leading-tight"
                  data-testid="keep-rare"
                >
                  <span>保管する</span>
                  <span className="text-xs font-bold">
                    {rareLabels.slice(0, 2).join('・')}
                    {rareLabels.length > 2 ? 'ほか' : ''} {rare.length}枚
                  </span>
                </Button>
              </Form>
            ) : (
              <Form method="post" replace preventScrollReset className="contents">
                <input type="hidden" name="intent" value="keep" />
                <input type="hidden" name="prizeIds" value={undecided.map((p) => p.prizeId).join(',')} />
                <Button
                  type="submit"
                  variant="secondary"
                  disabled={undecided.length === 0 || busy}
                  loading={pendingIntent === 'keep' && pendingIds.includes(',')}
                  className="!min-h-12 flex-col !gap-0 !px-2 !text-sm leading-tight"
                  data-testid="keep-undecided"
                >
                  <span>保管</span>
                  <span className="text-xs font-bold">未選択{undecided.length}枚</span>
                </Button>
              </Form>
            )}
            <ButtonLink
              to={hrefFor({ sheet: 'convert' })}
              replace
              preventScrollReset
              variant="plain"
              aria-disabled={undecided.length === 0 || busy || undefined}
              onClick={(event) => {
                event.preventDefault();
                if (undecided.length > 0 && !busy) setSheet({ kind: 'bulk' });
              }}
              className="!min-h-12 flex-col !gap-0 !px-2 !text-sm leading-tight"
              data-testid="convert-undecided"
            >
              <span>まとめて交換</span>
              <span className="text-xs font-bold">
                {lowestCount > 0
                  ? `${lowest.map((c) => c.label).join('・')}${lowestCount}枚・+${formatCoins(lowestTotal)}`
                  : '賞を選ぶ'}
              </span>
            </ButtonLink>
            {again && (
              <ButtonLink
                to={again.href}
                variant="plain"
                className="!min-h-12 flex-col !gap-0 !px-1 whitespace-nowrap !text-[13px] leading-tight"
                data-testid="draw-again"
              >
                <span>もう一度引く</span>
                <span className="text-xs font-bold">{again.label}</span>
              </ButtonLink>
            )}
          </div>
        </div>
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

/** The cards by tier, best first; low tiers of a large result are counts that open. */
function TierGroups({
  prizes,
  card,
}: {
  prizes: PrizeView[];
  card: (prize: PrizeView, size: 'large' | 'small') => ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3">
      {groupByTier(prizes).map((group) => {
        const heading = (
          <>
            <span
              className={`rounded-full px-2.5 py-0.5 text-sm font-black ${TIER_CHIP[group.effect] ?? TIER_CHIP.normal}`}
            >
              {group.label}
            </span>
            <span className="font-black">×{group.prizes.length}</span>
            <span className="text-xs text-white/75">合計 {formatCoins(group.value)}コイン</span>
          </>
        );
        const grid = (size: 'large' | 'small') => (
          <ul
            className={`grid gap-2 ${size === 'large' ? 'grid-cols-3 sm:grid-cols-4 lg:grid-cols-6' : 'grid-cols-4 sm:grid-cols-6 lg:grid-cols-8'}`}
            aria-label={`${group.label}のカード`}
          >
            {group.prizes.map((p) => (
              <li key={p.prizeId}>{card(p, size)}</li>
            ))}
          </ul>
        );
        return group.open ? (
          <section
            key={group.tierId}
            aria-label={`${group.label} ${group.prizes.length}枚`}
            className="flex flex-col gap-2"
            data-tier-group={group.label}
          >
            <h3 className="flex items-center gap-2">{heading}</h3>
            {grid(isHit(group) ? 'large' : 'small')}
          </section>
        ) : (
          <details key={group.tierId} className="group rounded-2xl bg-white/10" data-tier-group={group.label}>
            <summary className="flex min-h-12 cursor-pointer list-none items-center gap-2 px-3 py-2 [&::-webkit-details-marker]:hidden">
              <h3 className="flex items-center gap-2">{heading}</h3>
              <span className="ml-auto text-xs font-bold text-white/85 group-open:hidden">開く ▾</span>
              <span className="ml-auto hidden text-xs font-bold text-white/85 group-open:inline">閉じる ▴</span>
            </summary>
            <div className="px-2 pb-3">{grid('small')}</div>
          </details>
        );
      })}
    </div>
  );
}

/** A compact card: it opens the card's sheet, where the choices are. A rare tier is highlighted. */
function PrizeCard({
  prize,
  now,
  size,
  rare,
  href,
  onOpen,
}: {
  prize: PrizeView;
  now: number;
  size: 'large' | 'small';
  rare: boolean;
  href: string;
  onOpen: () => void;
}) {
  const left = prize.status === 'pending' ? formatRemainingShort(prize.decideBy, now) : '';
  return (
    <Link
      to={href}
      replace
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
      className={`flex h-full flex-col overflow-hidden rounded-xl bg-white text-ink shadow-sm outline-offset-2 hover:ring-2 hover:ring-primary ${rare ? 'ring-2 ring-amber-500' : ''}`}
      data-prize-id={prize.prizeId}
      data-status={prize.status}
      data-rare={rare || undefined}
    >
      <div className="relative bg-canvas">
        <Image
          src={prize.imagePath}
          alt=""
          width={size === 'large' ? 200 : 120}
          height={size === 'large' ? 280 : 168}
          className={`mx-auto aspect-[5/7] h-auto object-contain ${size === 'large' ? 'w-4/5 py-1.5' : 'w-full p-1'}`}
        />
        <span
          className={`absolute left-1 top-1 rounded-full px-1.5 py-0.5 text-xs font-black leading-none ${TIER_CHIP[prize.effect] ?? TIER_CHIP.normal}`}
        >
          {prize.tierLabel}
        </span>
        {rare && (
          <span className="absolute right-1 top-1 rounded-full bg-amber-300 px-1.5 py-0.5 text-xs font-black leading-none text-amber-950">
            上位
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-0.5 p-1.5">
        <p className={size === 'large' ? 'line-clamp-2 text-xs font-bold leading-snug' : 'sr-only'}>{prize.cardName}</p>
        <p className="text-xs text-muted">
          <b className="text-ink">{formatCoins(prize.conversionValue)}</b>コイン
        </p>
        <p
          className={`text-xs font-bold leading-tight ${prize.status === 'kept' ? 'text-emerald-800' : prize.status === 'pending' && isDeadlineNear(prize.decideBy, now) ? 'text-red-700' : 'text-muted'}`}
          data-testid="prize-status"
        >
          {prize.status === 'pending'
            ? left
              ? `自動交換まで${left.replace('残り', '')}`
              : 'まもなく自動交換'
            : PRIZE_STATUS_LABEL[prize.status]}
        </p>
      </div>
    </Link>
  );
}

/** One card's sheet: its details and its choices. Converting a kept card takes a second, own confirmation. */
function PrizeSheet({
  prize,
  now,
  confirmKept,
  busy,
  pendingIntent,
  actionData,
  rare,
  undoSeconds,
  closeHref,
  confirmKeptHref,
  onClose,
  onConfirmKept,
}: {
  prize: PrizeView;
  now: number;
  confirmKept: boolean;
  busy: boolean;
  pendingIntent: PrizeIntent | null;
  actionData: PrizeActionData | undefined;
  /** A rare tier (A賞 and better): 保管 is the first choice. */
  rare: boolean;
  undoSeconds: number;
  closeHref: string;
  confirmKeptHref: string;
  onClose: () => void;
  onConfirmKept: () => void;
}) {
  const left = prize.status === 'pending' ? formatRemainingShort(prize.decideBy, now) : '';
  const title = confirmKept
    ? `保管中の「${prize.cardName}」を${formatCoins(prize.conversionValue)}コインに交換します`
    : prize.cardName;
  // 保管 first for a rare tier (A賞 and better), else the conversion (decision 057).
  const keepForm = (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value="keep" />
      <input type="hidden" name="prizeIds" value={prize.prizeId} />
      <Button
        type="submit"
        variant={rare ? 'primary' : 'secondary'}
        size={rare ? 'lg' : 'md'}
        fullWidth
        loading={pendingIntent === 'keep'}
        disabled={busy}
        data-testid="keep-one"
      >
        発送用に保管する
      </Button>
    </Form>
  );
  const convertForm = (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value="convert" />
      <input type="hidden" name="prizeIds" value={prize.prizeId} />
      <Button
        type="submit"
        variant={rare ? 'plain' : 'primary'}
        size={rare ? 'md' : 'lg'}
        fullWidth
        loading={pendingIntent === 'convert'}
        disabled={busy}
        data-testid="convert-one"
      >
        {formatCoins(prize.conversionValue)}コインに交換する
      </Button>
    </Form>
  );
  return (
    <Sheet title={title} onClose={onClose} busy={busy} testId="prize-sheet">
      <div className="mt-3 flex flex-col gap-3 text-sm">
        {!confirmKept && (
          <div className="flex gap-3">
            <Image
              src={prize.imagePath}
              alt={`${prize.cardName}のカード画像`}
              width={120}
              height={168}
              className="aspect-[5/7] h-auto w-28 shrink-0 rounded-lg object-contain"
            />
            <dl className="flex flex-col gap-1">
              <div>
                <dt className="sr-only">賞</dt>
                <dd>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[prize.effect] ?? TIER_CHIP.normal}`}
                  >
                    {prize.tierLabel}
                  </span>
                </dd>
              </div>
              {(prize.rarity || prize.cardGrade) && (
                <div>
                  <dt className="sr-only">レアリティ・鑑定</dt>
                  <dd className="text-xs text-muted">{[prize.rarity, prize.cardGrade].filter(Boolean).join('・')}</dd>
                </div>
              )}
              {prize.gachaTitle && (
                <div>
                  <dt className="sr-only">オリパ</dt>
                  <dd className="text-xs text-muted">{prize.gachaTitle}</dd>
                </div>
              )}
              <div>
                <dt className="inline text-muted">交換 </dt>
                <dd className="inline font-black">{formatCoins(prize.conversionValue)}コイン</dd>
              </div>
              <div>
                <dt className="inline text-muted">状態 </dt>
                <dd className="inline font-bold">{PRIZE_STATUS_LABEL[prize.status]}</dd>
              </div>
              {prize.status === 'pending' && (
                <div className={`text-xs ${isDeadlineNear(prize.decideBy, now) ? 'text-red-700' : 'text-muted'}`}>
                  <dt className="inline">自動交換 </dt>
                  <dd className="inline">
                    <time dateTime={prize.decideBy}>{formatMemberDateTime(prize.decideBy)}</time>
                    {left ? `（${left}）` : ''}
                  </dd>
                </div>
              )}
            </dl>
          </div>
        )}
        <ActionError actionData={actionData} intent={null} busy={busy} />
        {prize.status === 'pending' && (
          <div className="flex flex-col gap-3">
            {rare && (
              <p className="rounded-xl bg-amber-50 p-3 font-bold text-amber-950" data-testid="rare-note">
                {prize.tierLabel}は上位の賞です。発送用に保管しておけば、あとで発送を申し込めます。
              </p>
            )}
            {rare ? keepForm : null}
            {convertForm}
            {rare ? null : keepForm}
          </div>
        )}
        {prize.status === 'pending' && (
          <p className="text-xs text-muted">
            交換しても{undoSeconds}
            秒間は「元に戻す」で取り消せます。保管したカードは保管期限まで自動交換されず、獲得商品から発送を申し込めます。
          </p>
        )}
        {prize.status === 'kept' && !confirmKept && (
          <>
            <p className="rounded-xl bg-emerald-50 p-3 text-emerald-900">
              このカードは発送用に保管中です。自動交換されません。
            </p>
            <ButtonLink
              to={confirmKeptHref}
              replace
              preventScrollReset
              variant="plain"
              fullWidth
              data-testid="convert-kept-start"
              onClick={(event) => {
                event.preventDefault();
                onConfirmKept();
              }}
            >
              保管をやめてコインに交換…
            </ButtonLink>
          </>
        )}
        {prize.status === 'kept' && confirmKept && (
          <>
            <p className="rounded-xl border-2 border-amber-500 bg-amber-50 p-3 font-bold text-amber-950">
              {prize.tierLabel}「{prize.cardName}」は発送用に保管中のカードです。交換すると発送できなくなります。
            </p>
            <p className="text-xs text-muted">
              交換しても{undoSeconds}秒間は「元に戻す」で取り消せます。その後は発送できません。
            </p>
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="convertKept" />
              <input type="hidden" name="prizeIds" value={prize.prizeId} />
              <Button
                type="submit"
                size="lg"
                variant="danger"
                fullWidth
                loading={pendingIntent === 'convertKept'}
                data-testid="confirm-convert-kept"
              >
                交換する
              </Button>
            </Form>
          </>
        )}
        <CancelLink href={closeHref} onClose={onClose} busy={busy} label={confirmKept ? 'やめる' : '閉じる'} />
      </div>
    </Sheet>
  );
}

function CancelLink({
  href,
  onClose,
  busy,
  label = 'キャンセル',
}: {
  href: string;
  onClose: () => void;
  busy: boolean;
  label?: string;
}) {
  return (
    <Link
      to={href}
      replace
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="flex min-h-11 items-center justify-center rounded-full text-sm font-bold text-muted hover:bg-canvas"
      aria-disabled={busy || undefined}
    >
      {label}
    </Link>
  );
}

/** A refusal, inside the sheet that asked for it. */
function ActionError({
  actionData,
  intent,
  busy,
}: {
  actionData: PrizeActionData | undefined;
  intent: PrizeIntent | null;
  busy: boolean;
}) {
  if (busy || !actionData || actionData.ok || (intent && actionData.intent !== intent)) return null;
  return (
    <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-bold text-red-700">
      {actionData.message}
    </p>
  );
}
