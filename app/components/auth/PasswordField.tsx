// A new-password input with the shop's policy ticked off while the member types (specification
// section 5: the form shows the policy live). In mode warn, unmet rules are shown but do not block.
import { useState } from 'react';
import { TextField } from '~/components/FormField';
import { maxLengthOf, passwordRules, type PasswordPolicy } from '#modules/identity/browser';

export function NewPasswordField({
  policy,
  name = 'password',
  label = 'パスワード',
  error,
}: {
  policy: PasswordPolicy;
  name?: string;
  label?: string;
  error?: string;
}) {
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const rules = passwordRules(policy, password);
  return (
    <div className="flex flex-col gap-1">
      <TextField
        name={name}
        type={visible ? 'text' : 'password'}
        label={label}
        autoComplete="new-password"
        required
        minLength={policy.mode === 'enforce' ? policy.minLength : undefined}
        maxLength={maxLengthOf(policy)}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={error}
        hint={
          <ul aria-label="パスワードの条件" className="flex flex-wrap gap-x-3 gap-y-1">
            {rules.map((rule) => (
              <li key={rule.requirement} className={rule.met ? 'font-bold text-emerald-700' : undefined}>
                <span aria-hidden="true">{rule.met ? '✓ ' : '・'}</span>
                {rule.label}
                <span className="sr-only">{rule.met ? '（満たしています）' : '（まだです）'}</span>
              </li>
            ))}
            {policy.mode === 'warn' ? (
              <li className="basis-full">条件は推奨です（満たさなくても登録できます）</li>
            ) : null}
          </ul>
        }
      />
      <label className="flex items-center gap-2 self-start text-xs text-muted">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          onChange={(e) => setVisible(e.currentTarget.checked)}
        />
        パスワードを表示する
      </label>
    </div>
  );
}
