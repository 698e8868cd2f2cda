// まとめて交換 by tier (decision 057): a checkbox per tier of the undecided cards, only the packs' lowest
// tiers (「C賞のみ」) chosen at first, never "everything undecided"; the confirmation names, card by card
// with its value, every card the naming rule picks (tiers above the lowest two, ≥ 1,000 coins, S賞 and
// better), and says that the conversion can be undone for a few seconds.
import { useState } from 'react';
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { formatCoins } from '~/lib/numbers';
import type { PrizeActionData, PrizeIntent } from '~/controllers/prize-actions.server';
import { TIER_CHIP } from './labels';
import { conversionPlan, isRareTier, tierChoices, type NamingRule, type SummaryPrize } from './prize-summary';

/** The form's separator between tier names (prize-actions.server.ts TIER_SEPARATOR). */
const TIER_SEPARATOR = '\n';

/** The shop's settings behind the prize choices (server/config.ts), handed down by the page's loader. */
export interface PrizeRules extends NamingRule {
  /** CONVERT_UNDO_SECONDS: how long 元に戻す is offered after a conversion. */
  undoSeconds: number;
}

export interface BulkConvertSheetProps<P extends SummaryPrize> {
  undecided: P[];
  rules: PrizeRules;
  busy: boolean;
  pendingIntent: PrizeIntent | null;
  actionData: PrizeActionData | undefined;
  onClose: () => void;
  /** The sheet's cancel link (works before the script has loaded). */
  cancel: React.ReactNode;
}

/**
 * @example <BulkConvertSheet undecided={undecided} rules={rules} busy={false} pendingIntent={null} actionData={undefined} onClose={close} cancel={link} />
 */
export function BulkConvertSheet<P extends SummaryPrize>({
  undecided,
  rules,
  busy,
  pendingIntent,
  actionData,
  onClose,
  cancel,
}: BulkConvertSheetProps<P>) {
  const choices = tierChoices(undecided);
  const lowest = choices.filter((c) => c.lowest).map((c) => c.label);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(lowest));
  const selected = choices.filter((c) => chosen.has(c.label)).flatMap((c) => c.prizes);
  const plan = conversionPlan(selected, rules);
  const toggle = (label: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(label);
      else next.delete(label);
      return next;
    });
  const onlyLowest = lowest.length > 0 && chosen.size === lowest.length && lowest.every((l) => chosen.has(l));
  const title =
    plan.count > 0 ? `${plan.count}枚を${formatCoins(plan.total)}コインに交換します` : '交換する賞を選んでください';
  return (
    <Sheet title={title} onClose={onClose} busy={busy} testId="bulk-convert-sheet">
      <div className="mt-3 flex flex-col gap-3 text-sm">
        <fieldset className="flex flex-col gap-2" data-testid="bulk-tiers">
          <legend className="mb-1 flex w-full items-center justify-between gap-2 font-bold">
            <span>交換する賞を選ぶ</span>
            {lowest.length > 0 && (
              <button
                type="button"
                onClick={() => setChosen(new Set(lowest))}
                aria-pressed={onlyLowest}
                className={`min-h-10 rounded-full border px-3 text-sm font-bold ${onlyLowest ? 'border-primary-ink bg-primary-soft text-primary-dark' : 'border-line bg-white text-ink hover:bg-canvas'}`}
                data-testid="bulk-lowest-only"
              >
                {lowest.join('・')}のみ
              </button>
            )}
          </legend>
          {choices.map((choice) => {
            const rare = choice.prizes.some((p) => isRareTier(p, rules.aboveLowestTiers));
            return (
              <label
                key={choice.label}
                className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border px-3 py-2 ${chosen.has(choice.label) ? 'border-primary-ink bg-primary-soft/60' : 'border-line bg-white'}`}
              >
                <input
                  type="checkbox"
                  className="size-5 shrink-0 accent-primary-ink"
                  checked={chosen.has(choice.label)}
                  onChange={(event) => toggle(choice.label, event.target.checked)}
                  disabled={busy}
                  data-testid="bulk-tier"
                  data-tier={choice.label}
                />
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[choice.effect] ?? TIER_CHIP.normal}`}
                >
                  {choice.label}
                </span>
                <span className="font-bold">{choice.prizes.length}枚</span>
                <span className="ml-auto text-right text-muted">
                  {formatCoins(choice.total)}コイン
                  {rare && <span className="block text-xs font-bold text-amber-800">上位の賞</span>}
                </span>
              </label>
            );
          })}
        </fieldset>
        {plan.highlights.length > 0 && (
          <section
            aria-labelledby="bulk-named-title"
            className="rounded-xl border-2 border-amber-500 bg-amber-50 p-3 text-amber-950"
            data-testid="bulk-highlights"
          >
            <h3 id="bulk-named-title" className="font-bold">
              次の{plan.highlights.length}枚も交換されます。カード名と交換額をご確認ください
            </h3>
            <ul className="mt-2 flex max-h-48 flex-col gap-1 overflow-y-auto">
              {plan.highlights.map((p) => (
                <li key={p.prizeId} className="flex items-center gap-2" data-testid="bulk-named-card">
                  <span
                    className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[p.effect] ?? TIER_CHIP.normal}`}
                  >
                    {p.tierLabel}
                  </span>
                  <span className="min-w-0 flex-1 truncate font-bold">{p.cardName}</span>
                  <span className="shrink-0 font-black">{formatCoins(p.conversionValue)}コイン</span>
                </li>
              ))}
            </ul>
          </section>
        )}
        <p className="text-muted">
          対象は未選択のカードのうち、選んだ賞だけです。発送用に保管中のカードは交換されません。交換したコインは無償コインとして付与され、交換後
          {rules.undoSeconds}秒間は「元に戻す」で取り消せます。
        </p>
        {actionData && !actionData.ok && actionData.intent === 'convert' && !busy && (
          <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-bold text-red-700">
            {actionData.message}
          </p>
        )}
        <Form method="post" replace preventScrollReset>
          <input type="hidden" name="intent" value="convert" />
          <input type="hidden" name="prizeIds" value={plan.prizes.map((p) => p.prizeId).join(',')} />
          <input type="hidden" name="tiers" value={[...chosen].join(TIER_SEPARATOR)} />
          <Button
            type="submit"
            size="lg"
            fullWidth
            disabled={plan.count === 0 || busy}
            loading={pendingIntent === 'convert'}
            data-testid="confirm-bulk-convert"
          >
            {plan.count}枚を交換する
          </Button>
        </Form>
        {cancel}
      </div>
    </Sheet>
  );
}
