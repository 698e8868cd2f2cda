// The farm's rules: the numbers every crop and watering follows.
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { FieldError, inputClass } from '~/components/admin/fields';
import type { FarmActionData } from '~/controllers/admin-farm.server';
import { NumberInput, type FarmPage } from './NumberInput';

export function RulesSection({ rules, answer }: { rules: FarmPage['rules']; answer: FarmActionData | undefined }) {
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
        <ActionAnswer answer={answer} form="rules" />
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
