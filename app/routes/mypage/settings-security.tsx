// /mypage/settings/security: 二段階認証 (TOTP). Set up with the password, a QR code and a first code;
// backup codes shown once (copy, download as .txt); regenerate them; turn it off with the password and
// a current code. Staff accounts arrive here from staff pages (`?required=staff`) and, once it is on,
// leave by 「管理画面へ」. Members only.
import { Form, useNavigation } from 'react-router';
import { useState } from 'react';
import type { Route } from './+types/settings-security';
import { shopRequestContext } from '#server/context';
import { FeaturePage } from '~/components/FeaturePage';
import { PageHeading } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { TextField, FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import {
  securityPageAction,
  securityPageLoader,
  type SecurityActionData,
  type SecurityPageData,
} from '~/controllers/second-factor.server';

export const handle = { title: '二段階認証' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return securityPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return securityPageAction(context.get(shopRequestContext), request);
}

const card = 'flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm';

export default function SettingsSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData as SecurityPageData;
  const result = actionData as SecurityActionData | undefined;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  if (!page.signedIn) return <FeaturePage membersOnly title="二段階認証" emptyTitle="ログインが必要です" />;
  const failed = result && !result.ok ? result : null;
  const errorFor = (intent: string) => (failed?.intent === intent ? failed.message : undefined);
  const codes = result?.ok ? result.backupCodes : undefined;
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4">
      <PageHeading title="二段階認証" />
      {page.staffNotice ? (
        <p role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm font-bold text-amber-900">
          運営スタッフのアカウントは、二段階認証を設定するまで運営用のページを開けません。下の手順で設定してください。
        </p>
      ) : null}
      {result?.ok ? (
        <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm font-bold text-emerald-800">
          {result.message}
        </p>
      ) : null}
      {codes?.length ? <BackupCodes codes={codes} /> : null}

      {page.enabled ? (
        <>
          <section className={card} aria-labelledby="status">
            <h2 id="status" className="text-lg font-black">
              二段階認証：有効
            </h2>
            <p className="text-sm text-muted">
              ログインのとき、パスワードのあとに認証アプリの6桁のコードを入力します。残りのバックアップコード：
              <strong>{page.backupCodesLeft}個</strong>
            </p>
          </section>
          <Form method="post" className={card} noValidate aria-labelledby="regenerate">
            <h2 id="regenerate" className="text-base font-black">
              バックアップコードを再発行する
            </h2>
            <p className="text-sm text-muted">
              新しい{page.backupCodeCount}個のコードを発行します。以前のコードは使えなくなります。
            </p>
            <FormAlert message={errorFor('regenerate')} />
            <input type="hidden" name="intent" value="regenerate" />
            <TextField name="password" type="password" label="パスワード" autoComplete="current-password" required />
            <Button type="submit" variant="secondary" loading={busy('regenerate')}>
              再発行する
            </Button>
          </Form>
          <Form method="post" className={card} noValidate aria-labelledby="disable">
            <h2 id="disable" className="text-base font-black">
              二段階認証を無効にする
            </h2>
            <p className="text-sm text-muted">
              パスワードと、認証アプリの現在のコード（端末をなくした場合はバックアップコード）を入力してください。
            </p>
            <FormAlert message={errorFor('disable')} />
            <input type="hidden" name="intent" value="disable" />
            <TextField name="password" type="password" label="パスワード" autoComplete="current-password" required />
            <TextField
              name="code"
              label="認証コード（6桁）またはバックアップコード"
              autoComplete="one-time-code"
              maxLength={16}
              required
            />
            <Button type="submit" variant="secondary" loading={busy('disable')}>
              無効にする
            </Button>
          </Form>
        </>
      ) : page.pending ? (
        <Form method="post" className={card} noValidate aria-labelledby="confirm">
          <h2 id="confirm" className="text-lg font-black">
            認証アプリで読み取る
          </h2>
          <ol className="list-decimal pl-5 text-sm">
            <li>Google Authenticator や Microsoft Authenticator などの認証アプリを開きます。</li>
            <li>下のQRコードを読み取ります（読み取れない場合はキーを手入力）。</li>
            <li>アプリに表示された6桁のコードを入力して「設定を完了する」を押します。</li>
          </ol>
          <img
            src={page.pending.qrDataUrl}
            alt="認証アプリに登録するためのQRコード"
            width={200}
            height={200}
            className="mx-auto rounded-lg border border-line bg-white"
          />
          <p className="text-center text-sm">
            手入力用のキー：
            <code className="font-mono font-bold tracking-wider" data-testid="manual-key">
              {page.pending.manualKey}
            </code>
          </p>
          <FormAlert message={errorFor('confirm')} />
          <input type="hidden" name="intent" value="confirm" />
          <TextField
            name="code"
            label="認証コード（6桁）"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={8}
            required
          />
          <Button type="submit" loading={busy('confirm')}>
            設定を完了する
          </Button>
        </Form>
      ) : null}

      {!page.enabled ? (
        page.hasPassword ? (
          <Form method="post" className={card} noValidate aria-labelledby="start">
            <h2 id="start" className="text-lg font-black">
              {page.pending ? 'QRコードを作り直す' : '二段階認証を設定する'}
            </h2>
            <p className="text-sm text-muted">
              パスワードに加えて、スマートフォンの認証アプリに表示されるコードでログインを守ります。まずパスワードを確認します。
            </p>
            <FormAlert message={errorFor('start')} />
            <input type="hidden" name="intent" value="start" />
            <TextField name="password" type="password" label="パスワード" autoComplete="current-password" required />
            {/* A new element when the variant changes: a colour transition from pink to white would be read mid-way. */}
            <Button
              key={page.pending ? 'again' : 'start'}
              type="submit"
              variant={page.pending ? 'secondary' : undefined}
              loading={busy('start')}
            >
              {page.pending ? '作り直す' : '設定を始める'}
            </Button>
          </Form>
        ) : (
          <p className={`${card} text-sm`}>
            二段階認証はパスワードでのログインを守る機能です。パスワードを設定しているアカウントで利用できます。
          </p>
        )
      ) : null}
      {page.adminLink ? (
        <ButtonLink to="/admin" fullWidth data-testid="to-admin">
          管理画面へ
        </ButtonLink>
      ) : null}
      <AppLink to="/mypage" className="text-center text-sm text-muted underline underline-offset-2">
        マイページに戻る
      </AppLink>
    </div>
  );
}

/** Backup codes, shown once: copy them or download a .txt; a clear warning. */
function BackupCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <section
      className="flex flex-col gap-3 rounded-2xl border-2 border-amber-400 bg-amber-50 p-5"
      aria-labelledby="codes"
    >
      <h2 id="codes" className="text-lg font-black">
        バックアップコード（この画面でのみ表示）
      </h2>
      <p role="alert" className="text-sm font-bold text-amber-900">
        スマートフォンをなくしたときは、このコードでログインできます。各コードは1回だけ使えます。
        この画面を閉じると二度と表示されません。安全な場所に保管し、他人に見せないでください。
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-base font-bold" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code} className="rounded-lg bg-white px-3 py-2 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'コピーしました' : 'コピーする'}
        </Button>
        <a
          href={download}
          download="backup-codes.txt"
          className="inline-flex items-center rounded-xl border border-line bg-white px-4 py-2 text-sm font-bold"
        >
          テキストファイルで保存（.txt）
        </a>
      </div>
    </section>
  );
}
