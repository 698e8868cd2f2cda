// The seed form of the farm page, in a sheet.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { FieldError, inputClass } from '~/components/admin/fields';
import type { FarmActionData } from '~/controllers/admin-farm.server';
import { NumberInput, type FarmPage, type Seed } from './NumberInput';

/** The seed form, in a sheet: a new seed (no `seed`) or an existing one (its id fixed). */
export function SeedForm({
  seed,
  arts,
  limits,
  answer,
  busy,
  onCancel,
}: {
  seed: Seed | null;
  arts: FarmPage['arts'];
  limits: FarmPage['limits'];
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
      {answer?.form === key && answer.error ? <ActionAnswer answer={answer} form={key} /> : null}
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
