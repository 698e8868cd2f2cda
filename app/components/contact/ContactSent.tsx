// What /contact shows once an inquiry is sent: the reference number and where to go next.
import { PageHeading } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';

export function ContactSent({ reference, signedIn }: { reference: string | null; signedIn: boolean }) {
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
        {reference ? (
          <p className="text-sm">
            受付番号
            <span className="mt-1 block font-mono text-2xl font-black tracking-wider" data-testid="inquiry-reference">
              {reference}
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
}
