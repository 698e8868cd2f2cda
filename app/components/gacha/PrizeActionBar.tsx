// The sticky bar of bulk choices over the undecided cards: 保管 of the rare cards first, まとめて交換 by
// tier, もう一度引く on a result; the outcome, with 元に戻す, shows in the bar where the member looks.
import { Form } from 'react-router';
import { Button, ButtonLink } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import type { PrizeActionData, PrizeIntent } from '~/controllers/prize-actions.server';
import { isRareTier, tierChoices } from './prize-summary';
import type { PrizeRules } from './BulkConvertSheet';
import { UndoFeedback } from './UndoFeedback';
import type { PrizeChoicesProps, PrizeView } from './PrizeList';

export function PrizeActionBar({
  undecided,
  rules,
  layout,
  again,
  barClassName,
  busy,
  pendingIntent,
  pendingIds,
  actionData,
  convertHref,
  onOpenBulk,
}: {
  undecided: PrizeView[];
  rules: PrizeRules;
  layout: PrizeChoicesProps['layout'];
  again: PrizeChoicesProps['again'];
  barClassName: string;
  busy: boolean;
  pendingIntent: PrizeIntent | null;
  pendingIds: string;
  actionData: PrizeActionData | undefined;
  /** The bulk sheet's address, for before the page's script has loaded. */
  convertHref: string;
  onOpenBulk: () => void;
}) {
  // The bar's まとめて交換 shows what its sheet starts with: the packs' lowest tiers only.
  const lowest = tierChoices(undecided).filter((c) => c.lowest);
  const lowestCount = lowest.reduce((n, c) => n + c.prizes.length, 0);
  const lowestTotal = lowest.reduce((n, c) => n + c.total, 0);
  // 保管 comes first for the rare cards (A賞 and better): one tap keeps exactly those.
  const rare = undecided.filter((p) => isRareTier(p, rules.aboveLowestTiers));
  const rareLabels = tierChoices(rare).map((c) => c.label);
  return (
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
          to={convertHref}
          replace
          preventScrollReset
          variant="plain"
          aria-disabled={undecided.length === 0 || busy || undefined}
          onClick={(event) => {
            event.preventDefault();
            if (undecided.length > 0 && !busy) onOpenBulk();
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
  );
}
