// /contact (お問い合わせ): the contact form for visitors and members. Category, email (a member's is
// filled in), the member's own order, draw or shipping request it is about, subject, message and up
// to three images. Works without JavaScript; with it, the images are checked and previewed as chosen.
// After sending, the page shows the reference number (the acknowledgement mail carries it too).
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/contact';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { Captcha } from '~/components/Captcha';
import { contactAction, contactLoader, type ContactActionData } from '~/controllers/contact.server';
import { INQUIRY_HONEYPOT_FIELD } from '#modules/support/browser';
import { ContactImagesField } from '~/components/contact/ContactImagesField';
import { ContactSent } from '~/components/contact/ContactSent';
import { RelatedSelect } from '~/components/contact/RelatedSelect';
import { FieldError, selectClass } from '~/components/contact/fields';

export const handle = { title: 'お問い合わせ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return contactLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return contactAction(context.get(shopRequestContext), request);
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sent, values: initial, categories, related, limits, signedIn } = loaderData;
  const result = actionData as ContactActionData | undefined;
  const values = result?.values ?? initial;
  const errors = result?.fieldErrors ?? {};
  const captcha = result?.captcha !== undefined ? result.captcha : loaderData.captcha;
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formAction?.startsWith('/contact') === true;
  const [messageLength, setMessageLength] = useState(values.message.length);
  const [imageError, setImageError] = useState<string | null>(null);

  if (sent) return <ContactSent reference={sent.reference} signedIn={signedIn} />;

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading
        title="お問い合わせ"
        lead="ご質問・ご要望・不具合のご報告はこちらから。内容を確認のうえ、担当者よりメールでご回答いたします。"
      />
      <FormAlert message={result?.formError} />
      <Form
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-5 rounded-2xl border border-line bg-white p-4"
        noValidate={false}
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor="field-category" className="text-sm font-bold">
            お問い合わせの種類
          </label>
          <select
            id="field-category"
            name="category"
            required
            defaultValue={values.category}
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={errors.category ? 'field-category-error' : undefined}
            className={selectClass(errors.category)}
          >
            <option value="" disabled>
              選んでください
            </option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
          <FieldError id="field-category-error" message={errors.category} />
        </div>

        <TextField
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={limits.email}
          defaultValue={values.email}
          error={errors.email}
          hint={
            signedIn
              ? 'ご登録のアドレスを入れています。ご回答はこのアドレスにお送りします。'
              : 'ご回答はこのアドレスにお送りします。'
          }
        />

        {signedIn ? <RelatedSelect related={related} defaultValue={values.related} error={errors.related} /> : null}

        <TextField
          name="subject"
          label="件名"
          required
          maxLength={limits.subject}
          defaultValue={values.subject}
          error={errors.subject}
          placeholder="例: 発送状況について"
        />

        <div className="flex flex-col gap-1.5">
          <label htmlFor="field-message" className="text-sm font-bold">
            お問い合わせ内容
          </label>
          <textarea
            id="field-message"
            name="message"
            required
            rows={7}
            maxLength={limits.message}
            defaultValue={values.message}
            onChange={(event) => setMessageLength(event.currentTarget.value.length)}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={`field-message-count${errors.message ? ' field-message-error' : ''}`}
            className={`rounded-xl border bg-white px-4 py-3 text-base leading-relaxed outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${errors.message ? 'border-red-500' : 'border-line'}`}
          />
          <p id="field-message-count" className="text-right text-xs text-muted" aria-live="polite">
            {messageLength.toLocaleString('ja-JP')} / {limits.message.toLocaleString('ja-JP')}文字
          </p>
          <FieldError id="field-message-error" message={errors.message} />
        </div>

        <ContactImagesField
          limits={limits}
          error={errors.images}
          imageError={imageError}
          setImageError={setImageError}
        />

        {/* The honeypot: hidden from people and screen readers alike; a bot that fills it is refused. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label>
            ウェブサイト（入力しないでください）
            <input type="text" name={INQUIRY_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>

        {captcha ? <Captcha {...captcha} resetOn={result} /> : null}

        <p className="text-xs leading-relaxed text-muted">
          送信いただいた内容は、
          <AppLink to="/privacy" className="underline underline-offset-2">
            プライバシーポリシー
          </AppLink>
          に従ってお問い合わせへの対応のために利用します。ご回答までお時間をいただく場合があります。
        </p>
        <Button type="submit" size="lg" fullWidth loading={submitting} disabled={imageError !== null}>
          送信する
        </Button>
      </Form>
    </div>
  );
}
