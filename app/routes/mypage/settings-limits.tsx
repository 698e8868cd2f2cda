// /mypage/settings/limits: the member's own limits (docs/decisions/035). A monthly purchase limit (JPY) and
// draw-spend limit (coins): lowering applies at once, raising or removing 7 days later (shown, cancellable).
// Self-exclusion for 1, 3 or 6 months, asked first on a sheet that says it cannot be lifted. Members only.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/settings-limits';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { SettingsNotice, SettingsPage } from '~/components/SettingsPage';
import { Sheet } from '~/components/Sheet';
import { jstDayLabel } from '~/components/SelfLimitNotice';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { limitsPageAction, limitsPageLoader, type LimitsActionData } from '~/controllers/limits.server';

export const handle = { title: '利用上限・自己除外' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return limitsPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return limitsPageAction(context.get(shopRequestContext), request);
}

type Kind = 'purchase' | 'draw';
const LABELS: Record<Kind, { title: string; unit: (v: number) => string; field: string; hint: string }> = {
  purchase: {
    title: '1か月の購入上限',
    unit: (v) => `¥${v.toLocaleString('ja-JP')}`,
    field: '購入上限（円）',
    hint: 'コインの購入額（税込）。お支払い手続き中のご注文も含めて数えます。',
  },
  draw: {
    title: '1か月のガチャ消費上限',
    unit: (v) => `${v.toLocaleString('ja-JP')}コイン`,
    field: 'ガチャ消費上限（コイン）',
    hint: 'ガチャに使うコイン（有償・無償の合計）。',
  },
};

export default function SettingsLimits({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as LimitsActionData | undefined;
  const { limits, summary, waitDays } = loaderData;
  return (
    <SettingsPage
      title="利用上限・自己除外"
      lead={`使いすぎを防ぐため、1か月の購入額とガチャの消費コインに上限を設定できます。上限を下げる変更はすぐに、上げる・なくす変更は${waitDays}日後に反映されます。1か月は日本時間の毎月1日0:00から月末までです。`}
    >
      {result?.ok && <SettingsNotice message={result.message} />}
      {/* A refusal that belongs to no one card (a cancel with nothing to cancel, a forged form) reads at the top. */}
      {result && !result.ok && !result.field && result.intent !== 'exclude' && <FormAlert message={result.message} />}
      {limits.exclusion && (
        <section
          className="rounded-2xl border-2 border-amber-300 bg-amber-50 p-5 text-amber-950"
          data-testid="limits-exclusion"
        >
          <h2 className="text-base font-black">{`自己除外中（${jstDayLabel(limits.exclusion.lastDay)}まで）`}</h2>
          <p className="mt-1 text-sm">
            期間中はコインの購入とガチャができません。期間の解除・短縮はできません。ログイン、獲得商品の発送・交換はご利用いただけます。
          </p>
        </section>
      )}
      {(['purchase', 'draw'] as const).map((kind) => (
        <LimitCard
          key={kind}
          kind={kind}
          setting={limits[kind]}
          usage={summary[kind]}
          max={loaderData.max[kind]}
          result={result}
        />
      ))}
      {!limits.exclusion || limits.exclusion.lastDay < loaderData.exclusionChoices.at(-1)!.lastDay ? (
        <ExclusionCard
          choices={loaderData.exclusionChoices}
          current={limits.exclusion?.lastDay ?? null}
          result={result}
        />
      ) : null}
    </SettingsPage>
  );
}

function LimitCard({
  kind,
  setting,
  usage,
  max,
  result,
}: {
  kind: Kind;
  setting: { limit: number | null; pending: { value: number | null; effectiveAt: string } | null };
  usage: { limit: number; used: number; remaining: number; reminder: boolean } | null;
  max: number;
  result: LimitsActionData | undefined;
}) {
  const navigation = useNavigation();
  const label = LABELS[kind];
  const busy = (intent: string) =>
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('kind') === kind;
  const error = result && !result.ok && 'field' in result && result.field === kind ? result.message : undefined;
  const ratio = usage && usage.limit > 0 ? Math.min(1, usage.used / usage.limit) : 1;
  return (
    <section
      aria-labelledby={`limit-${kind}-title`}
      className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm"
      data-testid={`limit-${kind}`}
    >
      <h2 id={`limit-${kind}-title`} className="text-base font-black">
        {label.title}
      </h2>
      <p className="text-sm">
        現在の上限：
        <b data-testid={`limit-${kind}-current`}>{setting.limit === null ? '設定なし' : label.unit(setting.limit)}</b>
      </p>
      {usage && (
        <div className="flex flex-col gap-1">
          <div
            className="h-2 overflow-hidden rounded-full bg-canvas"
            role="progressbar"
            aria-label={`今月の${kind === 'purchase' ? 'ご購入額' : 'ガチャ消費'}`}
            aria-valuemin={0}
            aria-valuemax={usage.limit}
            aria-valuenow={Math.min(usage.used, usage.limit)}
            aria-valuetext={`${label.unit(usage.used)} / ${label.unit(usage.limit)}`}
          >
            <div
              className={`h-full rounded-full ${usage.reminder ? 'bg-amber-500' : 'bg-primary'}`}
              style={{ width: `${Math.round(ratio * 100)}%` }}
            />
          </div>
          <p className="text-xs text-muted">
            {`今月 ${label.unit(usage.used)} / ${label.unit(usage.limit)}（残り ${label.unit(usage.remaining)}）`}
          </p>
        </div>
      )}
      {setting.pending && (
        <div className="flex flex-col gap-2 rounded-xl bg-canvas p-3 text-sm" data-testid={`limit-${kind}-pending`}>
          <p>
            {`変更予約：${setting.pending.value === null ? '上限なし' : label.unit(setting.pending.value)}（${formatMemberDateTime(setting.pending.effectiveAt)}に反映）`}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="kind" value={kind} />
            <Button type="submit" variant="secondary" loading={busy('cancel')}>
              予約を取り消す
            </Button>
          </Form>
        </div>
      )}
      <Form method="post" className="flex flex-col gap-3" noValidate>
        <input type="hidden" name="intent" value="change" />
        <input type="hidden" name="kind" value={kind} />
        <TextField
          name="amount"
          id={`limit-${kind}-amount`}
          label={label.field}
          inputMode="numeric"
          autoComplete="off"
          defaultValue={setting.limit === null ? '' : String(setting.limit)}
          error={error}
          hint={`${label.hint}0〜${max.toLocaleString('ja-JP')}。`}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={busy('change')} data-testid={`limit-${kind}-save`}>
            上限を保存する
          </Button>
        </div>
      </Form>
      {setting.limit !== null && !(setting.pending && setting.pending.value === null) && (
        <Form method="post">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="kind" value={kind} />
          <Button type="submit" variant="plain" loading={busy('remove')}>
            上限をなくす（7日後に反映）
          </Button>
        </Form>
      )}
    </section>
  );
}

function ExclusionCard({
  choices,
  current,
  result,
}: {
  choices: { months: number; lastDay: string }[];
  current: string | null;
  result: LimitsActionData | undefined;
}) {
  const navigation = useNavigation();
  const [asking, setAsking] = useState<{ months: number; lastDay: string } | null>(null);
  const [months, setMonths] = useState<number | null>(null);
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'exclude';
  const error = result && !result.ok && result.intent === 'exclude' ? result.message : null;
  // The answer closes the sheet (the notice or the error then reads on the page).
  useEffect(() => {
    if (result?.intent === 'exclude') setAsking(null);
  }, [result]);
  // Only a longer exclusion than the one in force can be chosen: it cannot be shortened.
  const open = choices.filter((c) => current === null || c.lastDay > current);
  return (
    <section aria-labelledby="exclusion-title" className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm">
      <h2 id="exclusion-title" className="text-base font-black">
        自己除外（一定期間の利用停止）
      </h2>
      <p className="text-sm">
        選んだ期間、コインの購入とガチャができなくなります。
        <b>期間中は解除も短縮もできません。</b>
        ログイン、獲得商品の発送・交換はご利用いただけます。
      </p>
      <Form
        method="post"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          const chosen = open.find((c) => c.months === months);
          if (!asking && chosen) {
            event.preventDefault();
            setAsking(chosen);
          }
        }}
      >
        <input type="hidden" name="intent" value="exclude" />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-bold">期間</legend>
          {open.map((c) => (
            <label
              key={c.months}
              className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 text-sm font-bold has-checked:border-primary-ink has-checked:bg-primary-soft"
            >
              <input
                type="radio"
                name="months"
                value={c.months}
                required
                className="size-5 accent-primary-ink"
                onChange={() => setMonths(c.months)}
              />
              {`${c.months}か月（${jstDayLabel(c.lastDay)}まで）`}
            </label>
          ))}
        </fieldset>
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" name="confirm" value="yes" className="mt-0.5 size-5 accent-primary-ink" />
          期間中は解除・短縮できないことを理解しました
        </label>
        {error && (
          <p role="alert" className="text-sm font-bold text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" variant="danger" loading={busy && !asking} data-testid="exclusion-start">
          自己除外を申し込む
        </Button>
      </Form>
      {asking && (
        <Sheet
          title={`${asking.months}か月間、購入とガチャを停止しますか？`}
          onClose={() => setAsking(null)}
          busy={busy}
          testId="exclusion-sheet"
        >
          <p className="mt-3 rounded-xl bg-amber-50 p-3 text-sm font-bold text-amber-950">
            {`${jstDayLabel(asking.lastDay)}まで、コインの購入とガチャができなくなります。この期間は解除も短縮もできません。`}
          </p>
          <p className="mt-2 text-sm text-muted">ログイン、獲得商品の発送・交換はそのままご利用いただけます。</p>
          <Form method="post" className="mt-4 flex flex-col gap-2">
            <input type="hidden" name="intent" value="exclude" />
            <input type="hidden" name="months" value={asking.months} />
            <input type="hidden" name="confirm" value="yes" />
            <Button type="submit" variant="danger" size="lg" fullWidth loading={busy} data-testid="exclusion-confirm">
              自己除外する
            </Button>
            <Button type="button" variant="plain" fullWidth disabled={busy} onClick={() => setAsking(null)}>
              キャンセル
            </Button>
          </Form>
        </Sheet>
      )}
    </section>
  );
}
