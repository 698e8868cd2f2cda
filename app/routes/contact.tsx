// /contact (お問い合わせ): the contact form for visitors and members. Category, email (a member's is
// filled in), the member's own order, draw or shipping request it is about, subject, message and up
// to three images. Works without JavaScript; with it, the images are checked and previewed as chosen.
// After sending, the page shows the reference number (the acknowledgement mail carries it too).
import { useEffect, useRef, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/contact';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { Captcha } from '~/components/Captcha';
import { contactAction, contactLoader, type ContactActionData } from '~/controllers/contact.server';
import { INQUIRY_HONEYPOT_FIELD, INQUIRY_IMAGE_TYPES, INQUIRY_RELATED_KIND_LABELS } from '#modules/support/browser';

export const handle = { title: 'お問い合わせ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return contactLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return contactAction(context.get(shopRequestContext), request);
}

const megabytes = (bytes: number) => `${Math.floor(bytes / 100_000) / 10}MB`;
const selectClass = (error?: string) =>
  `min-h-12 w-full rounded-xl border bg-white px-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-red-500' : 'border-line'}`;

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm font-bold text-red-600">
      {message}
    </p>
  ) : null;
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
  const [previews, setPreviews] = useState<{ name: string; url: string }[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => () => previews.forEach((p) => URL.revokeObjectURL(p.url)), [previews]);

  if (sent)
    return (
      <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
        <PageHeading title="お問い合わせ" />
        <section
          role="status"
          aria-labelledby="sent-title"
          className="flex flex-col gap-3 rounded-2xl border border-line bg-white p-5 text-center"
        >
          <h2 id="sent-title" className="text-lg font-black">
            お問い合わせを受け付けました
          </h2>
          {sent.reference ? (
            <p className="text-sm">
              受付番号
              <span className="mt-1 block font-mono text-2xl font-black tracking-wider" data-testid="inquiry-reference">
                {sent.reference}
              </span>
            </p>
          ) : null}
          <p className="text-sm leading-relaxed text-muted">
            ご入力のメールアドレスに確認メールをお送りしました。担当者より順にご回答いたします。追加でお伝えいただくことがある場合は、本文に受付番号を書き添えてお送りください。
          </p>
          <div className="mt-2 flex flex-col gap-2">
            <ButtonLink to="/" fullWidth>
              トップページへ
            </ButtonLink>
            {signedIn ? (
              <ButtonLink to="/mypage" variant="secondary" fullWidth>
                マイページへ
              </ButtonLink>
            ) : null}
          </div>
        </section>
      </div>
    );

  const checkImages = (files: FileList | null) => {
    previews.forEach((p) => URL.revokeObjectURL(p.url));
    const chosen = [...(files ?? [])];
    let problem: string | null = null;
    if (chosen.length > limits.images) problem = `添付できる画像は${limits.images}枚までです。`;
    const large = chosen.findIndex((f) => f.size > limits.imageMaxBytes);
    if (!problem && large >= 0)
      problem = `${large + 1}枚目の画像が大きすぎます（1枚${megabytes(limits.imageMaxBytes)}まで）。小さくしてから添付してください。`;
    const wrong = chosen.findIndex((f) => !(INQUIRY_IMAGE_TYPES as readonly string[]).includes(f.type));
    if (!problem && wrong >= 0)
      problem = `${wrong + 1}枚目は画像として添付できません。JPEG・PNG・WebPの画像を選んでください。`;
    setImageError(problem);
    setPreviews(problem ? [] : chosen.map((f) => ({ name: f.name, url: URL.createObjectURL(f) })));
  };
  const kinds = (['order', 'draw', 'shipping_request'] as const).filter((k) => related.some((r) => r.kind === k));
  const imageErrorText = imageError ?? errors.images;

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

        {signedIn ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor="field-related" className="text-sm font-bold">
              関連するご利用（任意）
            </label>
            <select
              id="field-related"
              name="related"
              defaultValue={values.related}
              aria-invalid={errors.related ? true : undefined}
              aria-describedby={`field-related-hint${errors.related ? ' field-related-error' : ''}`}
              className={selectClass(errors.related)}
            >
              <option value="">選ばない</option>
              {kinds.map((kind) => (
                <optgroup key={kind} label={INQUIRY_RELATED_KIND_LABELS[kind]}>
                  {related
                    .filter((r) => r.kind === kind)
                    .map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
            <p id="field-related-hint" className="text-xs text-muted">
              最近のご購入・オリパ・発送依頼から選べます。選ぶと担当者がすぐに確認できます。
            </p>
            <FieldError id="field-related-error" message={errors.related} />
          </div>
        ) : null}

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

        <div className="flex flex-col gap-1.5">
          <label htmlFor="field-images" className="text-sm font-bold">
            画像（任意・{limits.images}枚まで）
          </label>
          <input
            ref={fileInput}
            id="field-images"
            name="images"
            type="file"
            multiple
            accept={INQUIRY_IMAGE_TYPES.join(',')}
            onChange={(event) => checkImages(event.currentTarget.files)}
            aria-invalid={imageErrorText ? true : undefined}
            aria-describedby={`field-images-hint${imageErrorText ? ' field-images-error' : ''}`}
            className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-full file:border-0 file:bg-slate-100 file:px-4 file:font-bold"
          />
          <p id="field-images-hint" className="text-xs text-muted">
            JPEG・PNG・WebP、1枚{megabytes(limits.imageMaxBytes)}
            まで。画面のスクリーンショットや商品の写真をお送りいただけます（位置情報などの撮影データは取り除いて保存します）。
          </p>
          {previews.length ? (
            <ul className="flex gap-2" aria-label="選んだ画像">
              {previews.map((p) => (
                <li key={p.url}>
                  <img src={p.url} alt={p.name} className="size-20 rounded-lg border border-line object-cover" />
                </li>
              ))}
            </ul>
          ) : null}
          <FieldError id="field-images-error" message={imageErrorText ?? undefined} />
        </div>

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
