// /admin/farm (decision 044): the farm's pause switch (asks first), its rules, the seed table (edit in a
// sheet, add, stop or resume, delete a never-planted seed after asking) with `farm:write`, and the daily
// economy view (coins granted, members playing, streaks) with `farm:write` or `reports:read`. Audited.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/farm';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { DailyBarChart } from '~/components/admin/DashboardCharts';
import { FieldError, FormAnswer, inputClass } from '~/components/admin/fields';
import { farmPageAction, farmPageLoader, type FarmActionData } from '~/controllers/admin-farm.server';

export const handle = { title: 'ファーム' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return farmPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return farmPageAction(context.get(shopRequestContext), request);
}

type LoaderData = Route.ComponentProps['loaderData'];
type Seed = LoaderData['seeds'][number];

const PAUSE_QUESTION = 'ファームを一時停止します。会員は植え付け・水やり・収穫ができなくなります。';
const numberJa = new Intl.NumberFormat('ja-JP');
const dayJa = (day: string) => `${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;

/** Minutes in the operators' words: 90 → 「1時間30分」. */
function minutesText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest}分`;
  return rest ? `${hours}時間${rest}分` : `${hours}時間`;
}

/** A number input with its unit after it, its hint and its error (linked for screen readers). */
function NumberInput({
  id,
  name,
  label,
  unit,
  hint,
  defaultValue,
  error,
}: {
  id: string;
  name: string;
  label: string;
  unit: string;
  hint?: string;
  defaultValue: number | string | undefined;
  error: string | undefined;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="text-sm font-bold">
      <label htmlFor={id}>{label}</label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          name={name}
          inputMode="numeric"
          required
          defaultValue={defaultValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={`${inputClass} max-w-40`}
        />
        {unit ? <span className="mt-1 font-normal">{unit}</span> : null}
      </div>
      {hint ? (
        <span id={`${id}-hint`} className="mt-1 block text-xs font-normal text-muted">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function PauseSection({ paused, answer }: { paused: boolean; answer: FarmActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('form') === 'pause';
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (answer?.form === 'pause') setAsking(false);
  }, [answer]);
  return (
    <section
      aria-labelledby="farm-state"
      className={`mt-6 rounded-2xl border-2 p-5 ${paused ? 'border-amber-500 bg-amber-50' : 'border-green-600 bg-white'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="farm-state" className="text-lg font-bold">
            現在の状態：
            <span className={paused ? 'text-amber-900' : 'text-green-800'}>{paused ? '一時停止中' : '稼働中'}</span>
          </h2>
          <p className="mt-1 text-sm">
            {paused
              ? '会員は植え付け・水やり・収穫ができません。畑の表示はでき、作物の時間はそのまま進みます。'
              : '会員は植え付け・水やり・収穫・友達の畑への水やりができます。'}
          </p>
        </div>
        {paused ? (
          <Form method="post">
            <input type="hidden" name="form" value="pause" />
            <input type="hidden" name="intent" value="resume" />
            <Button type="submit" loading={busy}>
              ファームを再開する
            </Button>
          </Form>
        ) : (
          <Button type="button" variant="danger" onClick={() => setAsking(true)}>
            ファームを一時停止する…
          </Button>
        )}
      </div>
      <div className="mt-3">
        <FormAnswer answer={answer} form="pause" />
      </div>
      {asking ? (
        <Sheet title="ファームを一時停止しますか？" onClose={() => setAsking(false)} busy={busy}>
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="form" value="pause" />
            <input type="hidden" name="intent" value="pause" />
            <input type="hidden" name="confirmed" value="yes" />
            <p className="text-sm">{PAUSE_QUESTION}</p>
            <p className="text-sm text-muted">
              畑の表示はでき、作物の時間はそのまま進みます。再開はこのページからいつでもできます。
            </p>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="danger" loading={busy}>
                一時停止する
              </Button>
              <Button type="button" variant="plain" disabled={busy} onClick={() => setAsking(false)}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </section>
  );
}

function RulesSection({ rules, answer }: { rules: LoaderData['rules']; answer: FarmActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'rules';
  const errors = answer?.form === 'rules' ? (answer.fields ?? {}) : {};
  return (
    <section aria-labelledby="farm-rules" className="mt-8 rounded-2xl border border-line bg-white p-5">
      <h2 id="farm-rules" className="text-lg font-bold">
        ルール
      </h2>
      <p className="mt-1 text-xs text-muted">
        最終更新：{rules.updatedAtText}（日本時間）{rules.updatedBy ? `・${rules.updatedBy}` : ''}
        。保存すると会員の次の操作から適用されます（植えてある作物の報酬は植えたときのままです）。
      </p>
      <Form method="post" className="mt-4 grid gap-4" noValidate>
        <input type="hidden" name="intent" value="rules" />
        <FormAnswer answer={answer} form="rules" />
        <div className="text-sm font-bold">
          <label htmlFor="rules-plots">畑の解放レベル（カンマ区切り・1面目から順に）</label>
          <input
            id="rules-plots"
            name="plotUnlockLevels"
            required
            defaultValue={rules.plotUnlockLevels}
            aria-invalid={errors.plotUnlockLevels ? true : undefined}
            aria-describedby={`rules-plots-hint${errors.plotUnlockLevels ? ' rules-plots-error' : ''}`}
            className={inputClass}
          />
          <span id="rules-plots-hint" className="mt-1 block text-xs font-normal text-muted">
            例：1, 1, 1, 1, 5,
            10（レベル1で4面、レベル5で5面、レベル10で6面）。1〜12面、各1〜999、小さい順。レベル1で使える畑は4面まで。
          </span>
          <FieldError id="rules-plots-error" message={errors.plotUnlockLevels} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberInput
            id="rules-cooldown"
            name="waterCooldownMinutes"
            label="水やりの間隔（1つの畑）"
            unit="分"
            hint="60〜1440分。480分＝8時間に1回。"
            defaultValue={rules.waterCooldownMinutes}
            error={errors.waterCooldownMinutes}
          />
          <NumberInput
            id="rules-speedup"
            name="waterSpeedupPercent"
            label="水やりで短くなる残り時間"
            unit="%"
            hint="0〜90%。残りの育つ時間をこの割合だけ短くします（最低1分）。"
            defaultValue={rules.waterSpeedupPercent}
            error={errors.waterSpeedupPercent}
          />
          <NumberInput
            id="rules-wither"
            name="witherAfterMinutes"
            label="収穫できてから枯れるまで"
            unit="分"
            hint="60〜10080分（7日）。枯れた作物は報酬なし。"
            defaultValue={rules.witherAfterMinutes}
            error={errors.witherAfterMinutes}
          />
          <NumberInput
            id="rules-cap"
            name="dailyCoinCap"
            label="1人1日にもらえる無償コインの上限"
            unit="コイン"
            hint="0〜10000コイン（日本時間の1日）。収穫と友達の水やりの合計。"
            defaultValue={rules.dailyCoinCap}
            error={errors.dailyCoinCap}
          />
          <NumberInput
            id="rules-friend"
            name="friendWaterCoins"
            label="友達の畑に水やりしたときの報酬（2人それぞれ）"
            unit="コイン"
            hint="0〜100コイン。友達1人につき1日1回。"
            defaultValue={rules.friendWaterCoins}
            error={errors.friendWaterCoins}
          />
        </div>
        <div>
          <Button type="submit" loading={busy}>
            ルールを保存する
          </Button>
        </div>
      </Form>
    </section>
  );
}

/** The seed form, in a sheet: a new seed (no `seed`) or an existing one (its id fixed). */
function SeedForm({
  seed,
  arts,
  limits,
  answer,
  busy,
  onCancel,
}: {
  seed: Seed | null;
  arts: LoaderData['arts'];
  limits: LoaderData['limits'];
  answer: FarmActionData | undefined;
  busy: boolean;
  onCancel: () => void;
}) {
  const key = seed ? seed.id : 'new';
  const errors = answer?.form === key ? (answer.fields ?? {}) : {};
  const prefix = `seed-${key}`;
  return (
    <Form method="post" className="mt-3 grid gap-3" noValidate>
      <input type="hidden" name="intent" value={seed ? 'seed-save' : 'seed-create'} />
      {answer?.form === key && answer.error ? <FormAnswer answer={answer} form={key} /> : null}
      {seed ? (
        <input type="hidden" name="id" value={seed.id} />
      ) : (
        <div className="text-sm font-bold">
          <label htmlFor={`${prefix}-id`}>ID（英小文字で始まる半角英小文字・数字・-、2〜32文字）</label>
          <input
            id={`${prefix}-id`}
            name="id"
            required
            maxLength={32}
            aria-invalid={errors.id ? true : undefined}
            aria-describedby={errors.id ? `${prefix}-id-error` : undefined}
            className={inputClass}
          />
          <FieldError id={`${prefix}-id-error`} message={errors.id} />
        </div>
      )}
      <div className="text-sm font-bold">
        <label htmlFor={`${prefix}-name`}>名前（{limits.nameMax}文字まで）</label>
        <input
          id={`${prefix}-name`}
          name="name"
          required
          maxLength={limits.nameMax}
          defaultValue={seed?.name}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${prefix}-name-error` : undefined}
          className={inputClass}
        />
        <FieldError id={`${prefix}-name-error`} message={errors.name} />
      </div>
      <div className="text-sm font-bold">
        <label htmlFor={`${prefix}-art`}>絵柄</label>
        <select
          id={`${prefix}-art`}
          name="art"
          defaultValue={seed?.art ?? arts[0]?.art}
          aria-invalid={errors.art ? true : undefined}
          aria-describedby={errors.art ? `${prefix}-art-error` : undefined}
          className={inputClass}
        >
          {arts.map((a) => (
            <option key={a.art} value={a.art}>
              {a.label}
            </option>
          ))}
        </select>
        <FieldError id={`${prefix}-art-error`} message={errors.art} />
      </div>
      <NumberInput
        id={`${prefix}-grow`}
        name="growMinutes"
        label="育つ時間"
        unit="分"
        hint={`${limits.growMin}〜${limits.growMax}分（24時間）`}
        defaultValue={seed?.growMinutes}
        error={errors.growMinutes}
      />
      <NumberInput
        id={`${prefix}-reward`}
        name="rewardCoins"
        label="収穫の報酬（無償）"
        unit="コイン"
        hint="0〜1000コイン。1日の上限を超えた分は付与されません。"
        defaultValue={seed?.rewardCoins}
        error={errors.rewardCoins}
      />
      <NumberInput
        id={`${prefix}-level`}
        name="unlockLevel"
        label="植えられるレベル"
        unit="以上"
        defaultValue={seed?.unlockLevel ?? 1}
        error={errors.unlockLevel}
      />
      <NumberInput
        id={`${prefix}-sort`}
        name="sort"
        label="表示順（小さいほど先）"
        unit=""
        defaultValue={seed?.sort ?? 0}
        error={errors.sort}
      />
      <label className="flex items-center gap-2 text-sm" htmlFor={`${prefix}-active`}>
        <input
          id={`${prefix}-active`}
          type="checkbox"
          name="active"
          defaultChecked={seed ? seed.active : true}
          className="size-4"
        />
        会員が植えられる（オフで停止）
      </label>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={busy}>
          {seed ? '保存する' : '追加する'}
        </Button>
        <Button type="button" variant="plain" disabled={busy} onClick={onCancel}>
          やめる
        </Button>
      </div>
    </Form>
  );
}

function SeedsSection({ data, answer }: { data: LoaderData; answer: FarmActionData | undefined }) {
  const { seeds, arts, limits } = data;
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' ? navigation.formData : undefined;
  const busyOn = (intent: string, id?: string) =>
    submitting?.get('intent') === intent && (id === undefined || submitting.get('id') === id);
  /** The sheet open now: a seed's id, 'new', or a deletion to confirm. */
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Seed | null>(null);
  useEffect(() => {
    if (answer?.ok) {
      setEditing(null);
      setDeleting(null);
    }
  }, [answer]);
  const artLabel = (art: string) => arts.find((a) => a.art === art)?.label ?? art;
  const editingSeed = editing && editing !== 'new' ? (seeds.find((s) => s.id === editing) ?? null) : null;
  const rowAnswer = (id: string) => (answer?.form === id && !(editing === id && answer.error) ? answer : undefined);
  return (
    <section aria-labelledby="farm-seeds" className="mt-8 rounded-2xl border border-line bg-white p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="farm-seeds" className="text-lg font-bold">
          種（{seeds.length}種類）
        </h2>
        <Button type="button" variant="secondary" onClick={() => setEditing('new')}>
          種を追加する
        </Button>
      </div>
      <p className="mt-1 text-xs text-muted">
        変更は新しく植える作物から適用されます。一度でも植えられた種は削除できません（停止すると植えられなくなります）。
      </p>
      <FormAnswer answer={answer} form="deleted" />
      {answer?.form === 'new' && answer.ok ? <FormAnswer answer={answer} form="new" /> : null}
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">種の一覧</caption>
          <thead>
            <tr className="border-b border-line text-xs">
              <th scope="col" className="py-2 pr-2">
                名前・ID
              </th>
              <th scope="col" className="py-2 pr-2">
                絵柄
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                育つ時間
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                報酬
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                レベル
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                表示順
              </th>
              <th scope="col" className="py-2 pr-2">
                状態
              </th>
              <th scope="col" className="py-2">
                操作
              </th>
            </tr>
          </thead>
          <tbody>
            {seeds.map((s) => (
              <tr key={s.id} className="border-b border-line align-top last:border-0">
                <th scope="row" className="py-2 pr-2 font-bold">
                  {s.name}
                  <span className="block font-mono text-xs font-normal text-muted">{s.id}</span>
                  {rowAnswer(s.id) ? (
                    <div className="mt-1 font-normal">
                      <FormAnswer answer={rowAnswer(s.id)} form={s.id} />
                    </div>
                  ) : null}
                </th>
                <td className="py-2 pr-2">{artLabel(s.art)}</td>
                <td className="py-2 pr-2 text-right tabular-nums">
                  {s.growMinutes}分
                  {s.growMinutes >= 60 ? (
                    <span className="block text-xs text-muted">{minutesText(s.growMinutes)}</span>
                  ) : null}
                </td>
                <td className="py-2 pr-2 text-right tabular-nums">{s.rewardCoins}コイン</td>
                <td className="py-2 pr-2 text-right tabular-nums">Lv.{s.unlockLevel}〜</td>
                <td className="py-2 pr-2 text-right tabular-nums">{s.sort}</td>
                <td className="py-2 pr-2">
                  <span
                    className={`rounded px-2 py-0.5 text-xs font-bold ${s.active ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-ink'}`}
                  >
                    {s.active ? '植えられる' : '停止中'}
                  </span>
                </td>
                <td className="py-2">
                  <div className="flex flex-wrap gap-2">
                    <Button
                      type="button"
                      variant="plain"
                      onClick={() => setEditing(s.id)}
                      aria-label={`${s.name}を編集`}
                    >
                      編集
                    </Button>
                    <Form method="post">
                      <input type="hidden" name="id" value={s.id} />
                      <input type="hidden" name="intent" value={s.active ? 'seed-deactivate' : 'seed-activate'} />
                      <Button
                        type="submit"
                        variant="plain"
                        loading={busyOn(s.active ? 'seed-deactivate' : 'seed-activate', s.id)}
                        aria-label={s.active ? `${s.name}を停止する` : `${s.name}を植えられるようにする`}
                      >
                        {s.active ? '停止する' : '再開する'}
                      </Button>
                    </Form>
                    <Button type="button" variant="plain" onClick={() => setDeleting(s)} aria-label={`${s.name}を削除`}>
                      削除…
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing ? (
        <Sheet
          title={editingSeed ? `種「${editingSeed.name}」を編集` : '種を追加する'}
          onClose={() => setEditing(null)}
          busy={busyOn('seed-save') || busyOn('seed-create')}
        >
          <SeedForm
            key={editing}
            seed={editingSeed}
            arts={arts}
            limits={limits}
            answer={answer}
            busy={busyOn('seed-save') || busyOn('seed-create')}
            onCancel={() => setEditing(null)}
          />
        </Sheet>
      ) : null}
      {deleting ? (
        <Sheet
          title={`種「${deleting.name}」を削除しますか？`}
          onClose={() => setDeleting(null)}
          busy={busyOn('seed-delete')}
        >
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="seed-delete" />
            <input type="hidden" name="id" value={deleting.id} />
            <input type="hidden" name="confirmed" value="yes" />
            <p className="text-sm">
              一度も植えられていない種だけ削除できます。会員が植えたことのある種は削除せず、「停止する」で植えられないようにしてください。
            </p>
            {answer?.form === deleting.id && answer.error ? <FormAnswer answer={answer} form={deleting.id} /> : null}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="danger" loading={busyOn('seed-delete')}>
                削除する
              </Button>
              <Button type="button" variant="plain" disabled={busyOn('seed-delete')} onClick={() => setDeleting(null)}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </section>
  );
}

function EconomySection({ data }: { data: LoaderData }) {
  const { economy, range, rangeError, limits } = data;
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location?.pathname === '/admin/farm';
  const t = economy.totals;
  return (
    <section aria-labelledby="farm-economy" className="mt-8">
      <h2 id="farm-economy" className="text-lg font-bold">
        日別の経済（日本時間）
      </h2>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
        <label className="text-sm font-bold" htmlFor="economy-from">
          開始日
          <input
            id="economy-from"
            type="date"
            name="from"
            defaultValue={range.from}
            aria-invalid={rangeError ? true : undefined}
            className={inputClass}
          />
        </label>
        <label className="text-sm font-bold" htmlFor="economy-to">
          終了日
          <input
            id="economy-to"
            type="date"
            name="to"
            defaultValue={range.to}
            aria-invalid={rangeError ? true : undefined}
            className={inputClass}
          />
        </label>
        <Button type="submit" variant="secondary" loading={busy}>
          表示する
        </Button>
        <p className="w-full text-xs text-muted">{limits.economyMaxDays}日まで。既定は今日までの14日間です。</p>
        {rangeError ? (
          <p role="alert" className="w-full rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
            {rangeError}（今日までの14日間を表示しています）
          </p>
        ) : null}
      </Form>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ['付与した無償コイン', `${numberJa.format(t.coins)}コイン`],
          ['遊んだ会員（重複なし）', `${numberJa.format(t.members)}人`],
          ['収穫', `${numberJa.format(t.harvests)}回`],
          [
            '水やり（自分の畑／友達の畑）',
            `${numberJa.format(t.waterings)}回／${numberJa.format(t.friendWaterings)}回`,
          ],
          ['3日以上連続した会員', `${numberJa.format(t.streak3)}人`],
          ['7日以上連続した会員', `${numberJa.format(t.streak7)}人`],
          ['最長の連続日数', `${numberJa.format(t.longestStreak)}日`],
          ['のべ人数（人・日）', `${numberJa.format(t.playerDays)}`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-2xl border border-line bg-white p-3">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="mt-1 text-lg font-black tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4">
        <DailyBarChart
          title={`ファームが付与した無償コイン（日別、${dayJa(economy.from)}〜${dayJa(economy.to)}）`}
          unit="コイン"
          points={economy.days.map((d) => ({ key: d.day, value: d.coins }))}
        />
      </div>
      <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white p-4">
        <table className="w-full min-w-[720px] text-right text-sm tabular-nums">
          <caption className="mb-2 text-left text-sm font-bold">日別の内訳</caption>
          <thead>
            <tr className="border-b border-line text-xs">
              <th scope="col" className="py-2 pr-2 text-left">
                日付
              </th>
              <th scope="col" className="py-2 pr-2">
                無償コイン
              </th>
              <th scope="col" className="py-2 pr-2">
                遊んだ会員
              </th>
              <th scope="col" className="py-2 pr-2">
                収穫
              </th>
              <th scope="col" className="py-2 pr-2">
                水やり
              </th>
              <th scope="col" className="py-2 pr-2">
                友達の畑
              </th>
              <th scope="col" className="py-2 pr-2">
                3日以上連続
              </th>
              <th scope="col" className="py-2 pr-2">
                7日以上連続
              </th>
              <th scope="col" className="py-2">
                最長連続
              </th>
            </tr>
          </thead>
          <tbody>
            {economy.days.map((d) => (
              <tr key={d.day} className={`border-b border-line last:border-0 ${d.players ? '' : 'text-muted'}`}>
                <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                  {d.day}
                </th>
                <td className="py-1.5 pr-2">{numberJa.format(d.coins)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.players)}人</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.harvests)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.waterings)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.friendWaterings)}</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.streak3)}人</td>
                <td className="py-1.5 pr-2">{numberJa.format(d.streak7)}人</td>
                <td className="py-1.5">{d.longestStreak ? `${d.longestStreak}日` : '—'}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t-2 border-ink font-bold">
              <th scope="row" className="py-2 pr-2 text-left">
                合計
              </th>
              <td className="py-2 pr-2">{numberJa.format(t.coins)}</td>
              <td className="py-2 pr-2">のべ{numberJa.format(t.playerDays)}人</td>
              <td className="py-2 pr-2">{numberJa.format(t.harvests)}</td>
              <td className="py-2 pr-2">{numberJa.format(t.waterings)}</td>
              <td className="py-2 pr-2">{numberJa.format(t.friendWaterings)}</td>
              <td className="py-2 pr-2">{numberJa.format(t.streak3)}人</td>
              <td className="py-2 pr-2">{numberJa.format(t.streak7)}人</td>
              <td className="py-2">{t.longestStreak ? `${t.longestStreak}日` : '—'}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

export default function FarmAdminPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as FarmActionData | undefined;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">ファーム</h1>
      <p className="mt-1 text-sm text-muted">
        会員が毎日遊べるミニゲーム（/app/farm）の設定です。時間と報酬はすべてサーバーが決めます。変更はすべて監査ログに記録されます。
      </p>
      {loaderData.canWrite ? (
        <>
          <PauseSection paused={loaderData.rules.paused} answer={answer} />
          <RulesSection rules={loaderData.rules} answer={answer} />
          <SeedsSection data={loaderData} answer={answer} />
        </>
      ) : (
        <p className="mt-6 rounded-2xl border border-line bg-white p-4 text-sm">
          現在の状態：{loaderData.rules.paused ? '一時停止中' : '稼働中'}
          。設定の変更には「ファームの設定・種・一時停止」の権限（farm:write）が必要です。
        </p>
      )}
      <EconomySection data={loaderData} />
    </div>
  );
}
