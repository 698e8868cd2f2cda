// The frame of a member's own settings pages (profile, email, password): the heading, the way back to
// マイページ, the done notice and the form card, written once so that the pages read and behave alike.
import type { ReactNode } from 'react';
import { Form } from 'react-router';
import { PageHeading } from './PageFrame';
import { AppLink } from './AppLink';
import { FormAlert } from './FormField';

/**
 * A settings page: its heading (and lead), its content, then the link back to マイページ.
 * @example <SettingsPage title="プロフィール"><SettingsForm error={result?.formError}>…</SettingsForm></SettingsPage>
 */
export function SettingsPage({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading title={title} lead={lead} />
      {children}
      <AppLink to="/mypage" className="text-center text-sm text-muted underline underline-offset-2">
        マイページへ戻る
      </AppLink>
    </div>
  );
}

/**
 * What was just done (saved, changed), announced to screen readers as a status; nothing without a message.
 * @example <SettingsNotice message={result?.ok} />
 */
export function SettingsNotice({ message }: { message?: ReactNode }) {
  if (!message) return null;
  return (
    <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
      {message}
    </p>
  );
}

/**
 * The form card, posting to the page's own action; the form's error (if any) stands first in it.
 * Validation is the server's (noValidate), so its Japanese messages show, not the browser's.
 * @example <SettingsForm error={result?.formError}><TextField … /><Button type="submit">保存する</Button></SettingsForm>
 */
export function SettingsForm({ error, children }: { error?: string; children: ReactNode }) {
  return (
    <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
      <FormAlert message={error} />
      {children}
    </Form>
  );
}
