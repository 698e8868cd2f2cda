// /admin/farm's server side (decision 044): the farm's rules, pause switch and seed table for operators
// holding `farm:write`, and the daily economy view for them or for those reading the dashboard
// (`reports:read`). Every change goes through the farm's audited operator actions, which check the
// input with the farm's own schemas; a refusal answers its Japanese message, per field when it has one.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import {
  deleteFarmSeedAsOperator,
  pauseFarmAsOperator,
  saveFarmSeedAsOperator,
  updateFarmRulesAsOperator,
  FARM_CROP_ARTS,
  FARM_ECONOMY_MAX_DAYS,
  FARM_GROW_MINUTES_MAX,
  FARM_GROW_MINUTES_MIN,
  FARM_SEED_NAME_MAX,
  defaultFarmEconomyRange,
  farmEconomy,
  listFarmSeeds,
  readFarmRules,
  type FarmCropArt,
  type FarmEconomy,
} from '#modules/farm';
import { jstText, RefusalError, type Refusal } from '#modules/kernel';

/** The drawings' names as operators read them in the seed table. */
export const FARM_ART_LABELS: Readonly<Record<FarmCropArt, string>> = {
  radish: 'ラディッシュ',
  carrot: 'にんじん',
  tomato: 'トマト',
  corn: 'とうもろこし',
  strawberry: 'いちご',
  pumpkin: 'かぼちゃ',
  eggplant: 'なす',
  sunflower: 'ひまわり',
};

/** `form` is which form answered: 'pause', 'rules', 'new' (a new seed) or a seed's id; `fields`, a refusal's per field. */
export type FarmActionData = AdminActionResult;

/** The operator, who may read the page with `farm:write` or `reports:read`; without either, 403. */
const farmReader = (shop: ShopRequest, request: Request) =>
  requireOperator(shop, request, ['farm:write', 'reports:read']);

export async function farmPageLoader(shop: ShopRequest, request: Request) {
  const operator = await farmReader(shop, request);
  const db = shop.services.db;
  const url = new URL(request.url);
  const fallback = defaultFarmEconomyRange(new Date());
  const asked = { from: url.searchParams.get('from') || fallback.from, to: url.searchParams.get('to') || fallback.to };
  let economy: FarmEconomy;
  let rangeError: string | null = null;
  try {
    economy = await farmEconomy(db, asked);
  } catch (error) {
    if (!(error instanceof RefusalError)) throw error;
    rangeError = describeRefusal(error.refusal as Refusal<RefusalCode>).message;
    economy = await farmEconomy(db, fallback);
  }
  const canWrite = operator.permissions.has('farm:write');
  const rules = await readFarmRules(db);
  const body = {
    canWrite,
    rules: {
      paused: rules.paused,
      plotUnlockLevels: rules.plotUnlockLevels.join(', '),
      waterCooldownMinutes: rules.waterCooldownMinutes,
      waterSpeedupPercent: rules.waterSpeedupPercent,
      witherAfterMinutes: rules.witherAfterMinutes,
      dailyCoinCap: rules.dailyCoinCap,
      friendWaterCoins: rules.friendWaterCoins,
      updatedAtText: jstText(rules.updatedAt),
      updatedBy: rules.updatedBy,
    },
    seeds: canWrite ? await listFarmSeeds(db, { includeInactive: true }) : [],
    arts: FARM_CROP_ARTS.map((art) => ({ art, label: FARM_ART_LABELS[art] })),
    limits: {
      growMin: FARM_GROW_MINUTES_MIN,
      growMax: FARM_GROW_MINUTES_MAX,
      nameMax: FARM_SEED_NAME_MAX,
      economyMaxDays: FARM_ECONOMY_MAX_DAYS,
    },
    economy,
    range: rangeError ? asked : { from: economy.from, to: economy.to },
    rangeError,
  };
  return rangeError ? data(body, { status: 400 }) : body;
}

function refused(refusal: Refusal<string>, form: string) {
  const { status, message } = describeRefusal(refusal as Refusal<RefusalCode>);
  const fields = refusal.code === 'FARM_INPUT_INVALID' ? (refusal.details.fields as Record<string, string>) : undefined;
  return actionRefused(message, { form, fields, status });
}

/** The seed form's fields as the farm's schema reads them (the checkbox is 'on' or missing). */
const seedFields = (form: Record<string, string>) => ({
  id: form.id,
  name: form.name,
  art: form.art,
  growMinutes: form.growMinutes,
  rewardCoins: form.rewardCoins,
  unlockLevel: form.unlockLevel,
  active: form.active,
  sort: form.sort,
});

export async function farmPageAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'farm:write');
  const db = shop.services.db;
  const form = await readFormFields(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  switch (form.intent) {
    case 'pause':
    case 'resume': {
      const paused = form.intent === 'pause';
      // Pausing stops every member's farm: it comes only from the confirmation's button.
      if (paused && form.confirmed !== 'yes')
        return actionRefused('一時停止は確認画面から行ってください。', { form: 'pause' });
      const done = await pauseFarmAsOperator(db, operator, paused);
      if (!done.ok) return refused(done, 'pause');
      return actionOk(
        paused
          ? 'ファームを一時停止しました。会員は植え付け・水やり・収穫ができません（作物の時間はそのまま進みます）。'
          : 'ファームを再開しました。会員はいつもどおり遊べます。',
        { form: 'pause' },
      );
    }
    case 'rules': {
      const done = await updateFarmRulesAsOperator(db, operator, {
        plotUnlockLevels: form.plotUnlockLevels,
        waterCooldownMinutes: form.waterCooldownMinutes,
        waterSpeedupPercent: form.waterSpeedupPercent,
        witherAfterMinutes: form.witherAfterMinutes,
        dailyCoinCap: form.dailyCoinCap,
        friendWaterCoins: form.friendWaterCoins,
      });
      if (!done.ok) return refused(done, 'rules');
      return actionOk('ファームのルールを保存しました。会員の次の操作から適用されます。', { form: 'rules' });
    }
    case 'seed-create':
    case 'seed-save': {
      const which = form.intent === 'seed-create' ? 'new' : (form.id ?? '');
      const done = await saveFarmSeedAsOperator(
        db,
        operator,
        seedFields(form),
        form.intent === 'seed-create' ? 'create' : 'update',
      );
      if (!done.ok) return refused(done, which);
      const seed = done.value;
      return actionOk(
        `種「${seed.name}」を${form.intent === 'seed-create' ? '追加' : '保存'}しました${seed.active ? '' : '（停止中：会員は植えられません）'}。`,
        { form: which },
      );
    }
    case 'seed-activate':
    case 'seed-deactivate': {
      const which = form.id ?? '';
      const seed = (await listFarmSeeds(db, { includeInactive: true })).find((s) => s.id === which);
      if (!seed)
        return actionRefused('その種は見つかりません。一覧を読み込み直してください。', { form: which, status: 404 });
      const active = form.intent === 'seed-activate';
      const done = await saveFarmSeedAsOperator(db, operator, { ...seed, active }, 'update');
      if (!done.ok) return refused(done, which);
      return actionOk(
        active
          ? `種「${seed.name}」を植えられるようにしました。`
          : `種「${seed.name}」を停止しました。植えてある作物はそのまま育ち、収穫できます。`,
        { form: which },
      );
    }
    case 'seed-delete': {
      const which = form.id ?? '';
      if (form.confirmed !== 'yes') return actionRefused('削除は確認画面から行ってください。', { form: which });
      const done = await deleteFarmSeedAsOperator(db, operator, which);
      if (!done.ok) return refused(done, which);
      return actionOk(`種「${done.value.name}」を削除しました。`, { form: 'deleted' });
    }
    default:
      return actionRefused('操作を読み取れませんでした。ページを再読み込みしてください。');
  }
}
