// The two steps of an SMS code, shared by /mypage/settings/phonenumber and the phone sign-in on
// /auth/sign_in: a number → a 6-digit code. Plain forms (they work before hydration); once hydrated,
// the resend button counts down the 60 s cooldown and stays disabled meanwhile. Without JavaScript it
// stays enabled and the server answers an early resend with the seconds left.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from './Button';
import { FormAlert, TextField } from './FormField';
import { Captcha, type CaptchaWidget } from './Captcha';

/** What the page's action answers for these forms (app/lib/phone-number.server.ts). */
export interface PhoneFormState {
  step: 'number' | 'code';
  /** E.164, carried by the code step's hidden field. */
  phoneNumber?: string;
  /** The number as the member reads it (090-1234-5678). */
  shownNumber?: string;
  /** What was typed, given back when it was refused. */
  typed?: string;
  /** Seconds until another code may be sent. */
  cooldownSeconds?: number;
  fieldErrors?: { phoneNumber?: string; code?: string };
  formError?: string;
  notice?: string;
  /** The code step's captcha, after repeated failures (its token goes with the code). */
  captcha?: CaptchaWidget | null;
}

export function PhoneCodeSteps({
  state,
  submitLabel,
  hiddenFields = {},
  restartHref,
}: {
  state: PhoneFormState | undefined;
  /** The code step's button: 「認証する」 or 「ログイン」. */
  submitLabel: string;
  /** Extra fields every form carries (the sign-in's redirect). */
  hiddenFields?: Record<string, string>;
  /** Where 「番号を入力し直す」 goes. */
  restartHref: string;
}) {
  const navigation = useNavigation();
  const submitting = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const hidden = Object.entries(hiddenFields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));

  if (state?.step !== 'code' || !state.phoneNumber) {
    return (
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <FormAlert message={state?.formError} />
        {hidden}
        <input type="hidden" name="intent" value="phone-send" />
        <TextField
          name="phoneNumber"
          type="tel"
          label="携帯電話番号"
          autoComplete="tel"
          inputMode="tel"
          placeholder="090-1234-5678"
          required
          defaultValue={state?.typed}
          error={state?.fieldErrors?.phoneNumber}
          hint="SMSで6桁の認証コードをお送りします（携帯電話の番号のみ）。"
        />
        <Button type="submit" size="lg" fullWidth loading={submitting('phone-send')}>
          認証コードを送信
        </Button>
      </Form>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {state.notice ? (
        <p role="status" className="rounded-xl bg-primary-soft px-4 py-3 text-sm font-bold">
          {state.notice}
        </p>
      ) : null}
      <FormAlert message={state.formError} />
      <Form method="post" className="flex flex-col gap-4" noValidate>
        {hidden}
        <input type="hidden" name="intent" value="phone-verify" />
        <input type="hidden" name="phoneNumber" value={state.phoneNumber} />
        <TextField
          name="code"
          label="認証コード（6桁）"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          // A new answer (a wrong code) clears the field.
          key={state.fieldErrors?.code ?? 'code'}
          error={state.fieldErrors?.code}
          hint={`${state.shownNumber ?? ''} にSMSで送信したコードを入力してください。有効期限は10分です。`}
        />
        {state.captcha ? <Captcha {...state.captcha} resetOn={state} /> : null}
        <Button type="submit" size="lg" fullWidth loading={submitting('phone-verify')}>
          {submitLabel}
        </Button>
      </Form>
      <Form method="post" className="flex flex-col">
        {hidden}
        <input type="hidden" name="intent" value="phone-send" />
        <input type="hidden" name="phoneNumber" value={state.phoneNumber} />
        <ResendButton state={state} loading={submitting('phone-send')} />
      </Form>
      <a href={restartHref} className="text-center text-sm text-muted underline underline-offset-2">
        電話番号を入力し直す
      </a>
    </div>
  );
}

/** 「コードを再送信」, disabled with the seconds left while the cooldown runs (after hydration only). */
function ResendButton({ state, loading }: { state: PhoneFormState; loading: boolean }) {
  const seconds = state.cooldownSeconds ?? 0;
  const [hydrated, setHydrated] = useState(false);
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setHydrated(true);
    const started = Date.now();
    setLeft(seconds);
    if (seconds <= 0) return;
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
    // Each answer of the action starts its own countdown.
  }, [state, seconds]);
  const waiting = left > 0;
  return (
    <Button type="submit" variant="plain" fullWidth loading={loading} disabled={hydrated && waiting}>
      {waiting ? `コードを再送信（あと${left}秒）` : 'コードを再送信'}
    </Button>
  );
}
