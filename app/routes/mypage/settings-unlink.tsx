// /mypage/settings/unlink (連携アカウント): the member's ways to sign in — password, each linked
// provider, a verified phone number, email links — with 連携する for a configured provider not yet
// linked and 解除 (after a confirmation) for a linked one. Unlinking needs a recent sign-in
// (REAUTH_MAX_AGE_MINUTES): otherwise the page asks for the password or a provider sign-in first, and
// a provider sign-in that comes back as another member is user-mismatch. The last way to sign in
// stays. Members only. Everything works without JavaScript (forms and redirects).
import { Form, data, redirect, useNavigation } from 'react-router';
import type { Route } from './+types/settings-unlink';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { callAuth, cookieHeaders } from '~/controllers/auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { providerPageForBrowser, socialProvidersOn } from '~/controllers/social-sign-in.server';
import {
  listSignInMethods,
  sessionIsRecent,
  startSocialLink,
  startSocialSignIn,
  unlinkSignInMethod,
} from '#modules/identity/server';
import {
  SOCIAL_PROVIDER_NAMES,
  authErrorMessage,
  isPlaceholderEmail,
  isSocialProviderId,
  type SocialProviderId,
} from '#modules/identity/browser';
import { maintenanceRefusal, refusalInit } from '~/controllers/maintenance.server';

export const handle = { title: '連携アカウント' };

const PAGE = '/mypage/settings/unlink';

function hasMagicLink(plugins: unknown): boolean {
  return Array.isArray(plugins) && plugins.some((plugin) => (plugin as { id?: string })?.id === 'magic-link');
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  if (!shop.member) throw visitorAnswer(request);
  const { auth, config } = shop.services;
  const mine = await listSignInMethods(auth, request.headers, { emailLink: hasMagicLink(auth.options.plugins) });
  if (!mine) throw redirect(signInPathFor(url.pathname + url.search));
  const offered = socialProvidersOn(shop.services);
  const params = url.searchParams;
  const expected = params.get('expect');
  const error = expected && expected !== mine.memberId ? 'auth/user-mismatch' : params.get('error');
  const confirm = params.get('confirm');
  const linked = params.get('linked');
  const unlinked = params.get('unlinked');
  return {
    methods: mine.methods.map((method) =>
      method.kind === 'provider' ? { ...method, linkedAt: method.linkedAt.toISOString() } : method,
    ),
    linkable: offered.filter((id) => !mine.linked.includes(id)),
    recent: sessionIsRecent(mine.signedInAt, config.REAUTH_MAX_AGE_MINUTES),
    reauthMinutes: config.REAUTH_MAX_AGE_MINUTES,
    hasPassword: mine.methods.some((method) => method.kind === 'password'),
    email: isPlaceholderEmail(shop.member.email) ? null : shop.member.email,
    reauthProviders: offered.filter((id) => mine.linked.includes(id)),
    confirm: isSocialProviderId(confirm) && mine.linked.includes(confirm) ? confirm : null,
    notice: isSocialProviderId(linked)
      ? `${SOCIAL_PROVIDER_NAMES[linked]}を連携しました。`
      : isSocialProviderId(unlinked)
        ? `${SOCIAL_PROVIDER_NAMES[unlinked]}の連携を解除しました。`
        : params.get('reauth') === '1' && !error
          ? '本人確認が済みました。'
          : null,
    error: error ? authErrorMessage(error.slice(0, 100)) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  if (!shop.member) throw redirect(signInPathFor(PAGE));
  const closed = await maintenanceRefusal(shop);
  if (closed) return data({ error: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return data({ error: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const { auth, config } = shop.services;
  const provider = form.provider;
  const configured = socialProvidersOn(shop.services);
  if (form.intent === 'link' || form.intent === 'reauth-provider') {
    if (!isSocialProviderId(provider)) return data({ error: authErrorMessage('PROVIDER_NOT_FOUND') }, { status: 400 });
    const started =
      form.intent === 'link'
        ? await startSocialLink(auth, {
            headers: request.headers,
            provider,
            callbackURL: `${PAGE}?linked=${provider}`,
            errorCallbackURL: PAGE,
            configured,
          })
        : await startSocialSignIn(auth, {
            headers: request.headers,
            provider,
            // Back here as the same member, or it is user-mismatch (the loader compares).
            callbackURL: `${PAGE}?reauth=1&expect=${encodeURIComponent(shop.member.id)}`,
            errorCallbackURL: PAGE,
            configured,
          });
    if (!started.ok) return data({ error: authErrorMessage(started.code) }, { status: started.status });
    return redirect(providerPageForBrowser(shop.services, started.url), { headers: cookieHeaders(started.setCookies) });
  }
  if (form.intent === 'reauth-password') {
    const result = await callAuth(shop, request, '/sign-in/email', {
      email: shop.member.email,
      password: String(form.password ?? '').slice(0, 256),
      rememberMe: true,
    });
    if (!result.ok) return data({ error: authErrorMessage(result.code, result.status) }, { status: 401 });
    return redirect(`${PAGE}?reauth=1`, { headers: cookieHeaders(result.setCookies) });
  }
  if (form.intent === 'unlink') {
    if (!isSocialProviderId(provider))
      return data({ error: authErrorMessage('auth/no-such-provider') }, { status: 404 });
    const result = await unlinkSignInMethod(auth, {
      headers: request.headers,
      provider,
      reauthMaxAgeMinutes: config.REAUTH_MAX_AGE_MINUTES,
    });
    if (!result.ok) return data({ error: authErrorMessage(result.code) }, { status: result.status });
    return redirect(`${PAGE}?unlinked=${provider}`);
  }
  return data({ error: authErrorMessage(null) }, { status: 400 });
}

const METHOD_LABEL = {
  password: 'メールアドレスとパスワード',
  phone: '電話番号（SMS）',
  'email-link': 'メールのログインリンク',
} as const;

export default function SettingsUnlink({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const view = loaderData;
  const onlyOne = view.methods.length <= 1;
  const providerWord = (id: SocialProviderId) => SOCIAL_PROVIDER_NAMES[id];
  return (
    <div className="flex flex-col gap-6">
      <PageHeading title="連携アカウント" lead="ログインに使える方法の一覧です。" />
      {view.notice ? (
        <p role="status" className="rounded-xl bg-green-50 px-4 py-3 text-sm font-bold text-green-800">
          {view.notice}
        </p>
      ) : null}
      <FormAlert message={actionData?.error ?? view.error} />

      <section aria-labelledby="methods" className="flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm">
        <h2 id="methods" className="font-bold">
          ログイン方法
        </h2>
        <ul className="flex flex-col divide-y divide-line">
          {view.methods.map((method) => (
            <li
              key={method.kind === 'provider' ? method.providerId : method.kind}
              className="flex items-center justify-between gap-2 py-3"
            >
              <span>
                {method.kind === 'provider' ? providerWord(method.providerId) : METHOD_LABEL[method.kind]}
                {method.kind === 'phone' ? <span className="ml-2 text-sm text-muted">{method.phoneNumber}</span> : null}
              </span>
              {method.kind === 'provider' ? (
                onlyOne ? (
                  <span className="text-xs text-muted">最後のログイン方法のため解除できません</span>
                ) : (
                  <ButtonLink to={`?confirm=${method.providerId}`} variant="secondary">
                    解除
                  </ButtonLink>
                )
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      {view.confirm ? (
        <section aria-labelledby="confirm" className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm">
          <h2 id="confirm" className="font-bold">
            {providerWord(view.confirm)}の連携を解除しますか？
          </h2>
          {view.recent ? (
            <>
              <p className="text-sm">解除すると、{providerWord(view.confirm)}ではログインできなくなります。</p>
              <Form method="post" className="flex gap-2">
                <input type="hidden" name="intent" value="unlink" />
                <input type="hidden" name="provider" value={view.confirm} />
                <Button type="submit" loading={busy}>
                  解除する
                </Button>
                <ButtonLink to="?" variant="secondary">
                  やめる
                </ButtonLink>
              </Form>
            </>
          ) : (
            <>
              <p className="text-sm">
                安全のため、解除の前にもう一度ログインしてください（ログインから{view.reauthMinutes}
                分以内に解除できます）。
              </p>
              {view.hasPassword && view.email ? (
                <Form method="post" className="flex flex-col gap-2">
                  <input type="hidden" name="intent" value="reauth-password" />
                  <TextField
                    name="password"
                    type="password"
                    label="パスワード"
                    autoComplete="current-password"
                    required
                  />
                  <Button type="submit" loading={busy}>
                    パスワードで確認する
                  </Button>
                </Form>
              ) : null}
              {view.reauthProviders.map((id) => (
                <Form method="post" key={id}>
                  <input type="hidden" name="intent" value="reauth-provider" />
                  <input type="hidden" name="provider" value={id} />
                  <Button type="submit" variant="secondary" fullWidth loading={busy}>
                    {providerWord(id)}で確認する
                  </Button>
                </Form>
              ))}
            </>
          )}
        </section>
      ) : null}

      {view.linkable.length > 0 ? (
        <section aria-labelledby="link" className="flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm">
          <h2 id="link" className="font-bold">
            連携できるアカウント
          </h2>
          {view.linkable.map((id) => (
            <Form method="post" key={id}>
              <input type="hidden" name="intent" value="link" />
              <input type="hidden" name="provider" value={id} />
              <Button type="submit" variant="secondary" fullWidth loading={busy}>
                {providerWord(id)}と連携する
              </Button>
            </Form>
          ))}
        </section>
      ) : null}
    </div>
  );
}
