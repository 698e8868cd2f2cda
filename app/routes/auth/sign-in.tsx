// /auth/sign_in: email and password; the member returns to `redirect` (only a path on this site).
// A member with the second factor on continues to the code step (`?step=code`, or `?step=backup` for
// a backup code) before the session is given. Each form's action is its own module in app/lib/sign-in/.
import { Form, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/sign-in';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { TextField, FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { authErrorMessage } from '#modules/identity';
import { SignInMethods } from '~/components/SignInMethods';
import { PhoneSignIn } from '~/components/PhoneSignIn';
import { Captcha, type CaptchaWidget } from '~/components/Captcha';
import { socialProvidersOn } from '~/controllers/social-sign-in.server';
import { signInPageAction } from '~/controllers/sign-in/action.server';
import type { PasswordSignInData } from '~/controllers/sign-in/password.server';
import type { EmailLinkSignInData } from '~/controllers/sign-in/email-link.server';
import {
  TRUST_DEVICE_DAYS,
  secondStepCaptcha,
  type SecondStepActionData,
} from '~/controllers/sign-in/second-factor.server';

export const handle = { title: 'ログイン' };

/** What the password form and the email-link form read back (the social button's error is a formError too). */
type ActionData = PasswordSignInData & EmailLinkSignInData;

/**
 * The social buttons on offer, a social sign-in's error (better-auth's `?error=` on return); on the
 * code step, its trust period and the captcha when failures already ask for one.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  const error = url.searchParams.get('error');
  const step = url.searchParams.get('step');
  return {
    providers: socialProvidersOn(shop.services),
    socialError: error ? authErrorMessage(error.slice(0, 100)) : null,
    trustDeviceDays: TRUST_DEVICE_DAYS,
    secondStepCaptcha: step === 'code' || step === 'backup' ? await secondStepCaptcha(shop, request) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return signInPageAction(context.get(shopRequestContext), request);
}

export default function SignIn({ actionData, loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const busy = navigation.state !== 'idle' && navigation.formAction?.startsWith('/auth/sign_in') === true;
  const emailLinkSubmitting = busy && navigation.formData?.get('intent') === 'email-link';
  const submitting = busy && !emailLinkSubmitting;
  const redirectTo = params.get('redirect') ?? '';
  const step = params.get('step');
  if (step === 'code' || step === 'backup')
    return (
      <SecondStep
        step={step}
        redirectTo={redirectTo}
        submitting={submitting}
        trustDeviceDays={loaderData?.trustDeviceDays ?? 30}
        result={actionData as SecondStepActionData | undefined}
        pageCaptcha={loaderData?.secondStepCaptcha ?? null}
      />
    );
  const result = actionData as ActionData | undefined;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">ログイン</h1>
        {redirectTo ? <p className="mt-1 text-sm text-muted">続けるにはログインしてください。</p> : null}
      </div>
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={result?.formError ?? loaderData?.socialError} />
        {result?.unverified ? (
          <div
            role="alert"
            className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm leading-relaxed"
          >
            <strong>メールアドレスの確認がまだ済んでいません。</strong>
            確認メールをもう一度お送りしました。メールのボタンを押すと登録が完了し、ログインします。
          </div>
        ) : null}
        <input type="hidden" name="redirect" value={redirectTo} />
        <TextField
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          inputMode="email"
          required
          defaultValue={result?.email}
          error={result?.fieldErrors?.email}
        />
        <TextField
          name="password"
          type="password"
          label="パスワード"
          autoComplete="current-password"
          required
          error={result?.fieldErrors?.password}
        />
        {result?.captcha ? <Captcha {...result.captcha} resetOn={result} /> : null}
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          ログイン
        </Button>
        <AppLink to="/auth/passwd" className="text-center text-sm text-muted underline underline-offset-2">
          パスワードをお忘れの方
        </AppLink>
      </Form>
      <EmailLinkForm redirectTo={redirectTo} answer={result?.emailLink} submitting={emailLinkSubmitting} />
      <SignInMethods mode="sign-in" providers={loaderData?.providers} redirectTo={redirectTo} />
      <PhoneSignIn result={actionData} redirectTo={redirectTo} />
      <p className="text-center text-sm">
        はじめての方は{' '}
        <AppLink
          to={redirectTo ? `/auth/sign_up?redirect=${encodeURIComponent(redirectTo)}` : '/auth/sign_up'}
          className="font-bold text-primary-ink underline underline-offset-2"
        >
          新規会員登録
        </AppLink>
      </p>
    </div>
  );
}

/** Sign in without a password: a link by mail, valid 15 minutes, used once. */
function EmailLinkForm({
  redirectTo,
  answer,
  submitting,
}: {
  redirectTo: string;
  answer?: ActionData['emailLink'];
  submitting: boolean;
}) {
  return (
    <details id="email-link" className="rounded-2xl bg-white p-5 shadow-sm" open={answer ? true : undefined}>
      <summary className="cursor-pointer text-sm font-bold">
        パスワードを使わずにログイン（メールでリンクを受け取る）
      </summary>
      {answer?.sent ? (
        <p role="status" className="mt-3 text-sm leading-relaxed">
          <strong className="break-all">{answer.sent}</strong>{' '}
          が登録済みのアドレスであれば、ログイン用のリンクをお送りしました（15分間有効）。
        </p>
      ) : (
        <Form method="post" className="mt-3 flex flex-col gap-3" noValidate>
          <FormAlert message={answer?.error} />
          <input type="hidden" name="intent" value="email-link" />
          <input type="hidden" name="redirect" value={redirectTo} />
          <TextField
            id="email-link-address"
            name="email"
            type="email"
            label="メールアドレス"
            autoComplete="email"
            inputMode="email"
            required
            error={answer?.fieldError}
          />
          <Button type="submit" variant="secondary" fullWidth loading={submitting}>
            ログインリンクを送る
          </Button>
        </Form>
      )}
    </details>
  );
}

/** The code step: the authenticator's 6 digits, or a backup code; 「この端末を30日間信頼する」. */
function SecondStep(props: {
  step: 'code' | 'backup';
  redirectTo: string;
  submitting: boolean;
  trustDeviceDays: number;
  result: SecondStepActionData | undefined;
  /** The captcha the step opened with (failures before it); an answer's own captcha comes first. */
  pageCaptcha: CaptchaWidget | null;
}) {
  const { step, redirectTo, result } = props;
  const captcha = result?.captcha ?? props.pageCaptcha;
  const withRedirect = (next: string) =>
    redirectTo ? `${next}${next.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(redirectTo)}` : next;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">二段階認証</h1>
        <p className="mt-1 text-sm text-muted">
          {step === 'code'
            ? '認証アプリに表示されている6桁のコードを入力してください。'
            : '保管しているバックアップコード（10文字）を1つ入力してください。使ったコードは再利用できません。'}
        </p>
      </div>
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={result?.formError} />
        <input type="hidden" name="intent" value="second-factor" />
        <input type="hidden" name="step" value={step} />
        <input type="hidden" name="redirect" value={redirectTo} />
        {step === 'code' ? (
          <TextField
            key="code"
            name="code"
            label="認証コード（6桁）"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={8}
            required
          />
        ) : (
          <TextField
            key="backup"
            name="code"
            label="バックアップコード"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={16}
            required
          />
        )}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="trustDevice" className="size-4" />
          この端末を{props.trustDeviceDays}日間信頼する（共用の端末ではチェックしないでください）
        </label>
        {captcha ? <Captcha {...captcha} resetOn={result} /> : null}
        <Button type="submit" size="lg" fullWidth loading={props.submitting}>
          認証する
        </Button>
        {step === 'code' ? (
          <AppLink
            to={withRedirect('/auth/sign_in?step=backup')}
            className="text-center text-sm text-muted underline underline-offset-2"
          >
            バックアップコードを使う
          </AppLink>
        ) : (
          <AppLink
            to={withRedirect('/auth/sign_in?step=code')}
            className="text-center text-sm text-muted underline underline-offset-2"
          >
            認証アプリのコードを使う
          </AppLink>
        )}
      </Form>
      <p className="text-center text-sm">
        <AppLink
          to={withRedirect('/auth/sign_in')}
          className={result?.restart ? 'font-bold text-primary-ink underline' : 'text-muted underline'}
        >
          メールアドレスとパスワードの入力に戻る
        </AppLink>
      </p>
    </div>
  );
}
