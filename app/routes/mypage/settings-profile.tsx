// /mypage/settings/profile: ニックネーム (shown on rankings), how the winners feed names the member
// (匿名 by default, decision 036) and 生年月日 (optional; a real date, checked strictly). Members only.
import { useNavigation } from 'react-router';
import type { Route } from './+types/settings-profile';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { TextField } from '~/components/FormField';
import { SettingsForm, SettingsNotice, SettingsPage } from '~/components/SettingsPage';
import { profileAction, profileLoader, type SettingsActionData } from '~/controllers/account-settings.server';

export const handle = { title: 'プロフィール' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return profileLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return profileAction(context.get(shopRequestContext), request);
}

const thisYear = new Date().getFullYear();

export default function SettingsProfile({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData as SettingsActionData | undefined;
  const { name, birthday, nicknameMaxLength, winnersFeedNamed } = loaderData;
  const select = 'min-h-12 rounded-xl border border-line bg-white px-3 text-base';
  return (
    <SettingsPage title="プロフィール" lead="ニックネームはランキングに表示されます。当選履歴での表示は下で選べます。">
      <SettingsForm error={result?.formError}>
        <SettingsNotice message={result?.ok} />
        <TextField
          name="name"
          label="ニックネーム"
          autoComplete="nickname"
          maxLength={nicknameMaxLength}
          required
          defaultValue={name}
          error={result?.fieldErrors?.name}
          hint={`${nicknameMaxLength}文字以内。運営・公式と紛らわしい名前は使えません。`}
        />
        <fieldset className="flex flex-col gap-2" aria-describedby="winners-feed-hint">
          <legend className="text-sm font-bold">みんなの当選履歴での表示</legend>
          <p id="winners-feed-hint" className="text-xs text-muted">
            上位賞に当選すると、トップページとオリパのページの「みんなの当選履歴」に載ります。メールアドレスや会員IDは表示されません。
          </p>
          {[
            { value: 'anonymous', label: '「匿名」と表示する（おすすめ）' },
            { value: 'named', label: 'ニックネームを表示する' },
          ].map((option) => (
            <label
              key={option.value}
              className="flex min-h-12 items-center gap-3 rounded-xl border border-line bg-white px-3"
            >
              <input
                type="radio"
                name="winnersFeed"
                value={option.value}
                defaultChecked={(option.value === 'named') === winnersFeedNamed}
                className="h-5 w-5 accent-primary"
              />
              <span className="text-sm">{option.label}</span>
            </label>
          ))}
        </fieldset>
        <fieldset
          className="flex flex-col gap-1.5"
          aria-describedby={result?.fieldErrors?.birthday ? 'birthday-error' : undefined}
        >
          <legend className="text-sm font-bold">生年月日（任意）</legend>
          <div className="flex items-center gap-2">
            <label className="flex items-center gap-1">
              <input
                name="year"
                inputMode="numeric"
                autoComplete="bday-year"
                maxLength={4}
                defaultValue={birthday.year}
                placeholder={String(thisYear - 20)}
                aria-label="年"
                className={`${select} w-24`}
              />
              年
            </label>
            <label className="flex items-center gap-1">
              <select
                name="month"
                defaultValue={birthday.month}
                aria-label="月"
                autoComplete="bday-month"
                className={select}
              >
                <option value="">--</option>
                {Array.from({ length: 12 }, (_, i) => (
                  <option key={i + 1} value={i + 1}>
                    {i + 1}
                  </option>
                ))}
              </select>
              月
            </label>
            <label className="flex items-center gap-1">
              <select name="day" defaultValue={birthday.day} aria-label="日" autoComplete="bday-day" className={select}>
                <option value="">--</option>
                {Array.from({ length: 31 }, (_, i) => (
                  <option key={i + 1} value={i + 1}>
                    {i + 1}
                  </option>
                ))}
              </select>
              日
            </label>
          </div>
          {result?.fieldErrors?.birthday ? (
            <p id="birthday-error" className="text-sm font-bold text-red-600">
              {result.fieldErrors.birthday}
            </p>
          ) : null}
        </fieldset>
        <Button type="submit" size="lg" fullWidth loading={navigation.state === 'submitting'}>
          保存する
        </Button>
      </SettingsForm>
    </SettingsPage>
  );
}
