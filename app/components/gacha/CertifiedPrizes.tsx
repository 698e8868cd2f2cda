// The pack page's proof that its graded hits exist (issue 33 item 8): each graded card's certificate
// (company and number) as published, and its photo's original — the file exactly as the shop uploaded it,
// served unchanged — with the SHA-256 anyone can recompute at any time, and how to.
import { useState } from 'react';
import { formatMemberDateTime } from '#modules/kernel/dates';
import type { GachaTierView } from '#modules/gacha';

/** What the section reads of a pack's tier (modules/gacha's GachaTierView). */
export type CertifiedTier = Pick<GachaTierView, 'id' | 'label' | 'cardName' | 'cardGrade' | 'certificate' | 'photo'>;

/** "PSA 鑑定番号 12345678", as this section says it (the line-up keeps the number on one line). */
const certificateText = (certificate: { company: string; number: string }) =>
  `${certificate.company} 鑑定番号 ${certificate.number}`;

/** A SHA-256 shortened for the eye (its first and last 8 digits; a tap shows all 64), and copyable. */
function Sha256Value({ sha256, name }: { sha256: string; name: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="text-xs">
      <span className="font-bold text-muted">写真のSHA-256</span>
      <div className="flex flex-wrap items-start gap-x-2">
        <details className="min-w-0">
          <summary className="min-h-11 cursor-pointer py-3 font-mono">
            <span aria-hidden="true">
              {sha256.slice(0, 8)}…{sha256.slice(-8)}
            </span>
            <span className="sr-only">{sha256}</span>
          </summary>
          <code className="block select-all break-all rounded bg-canvas p-2 font-mono">{sha256}</code>
        </details>
        <button
          type="button"
          className="min-h-11 shrink-0 rounded-full border border-line px-4 font-bold"
          aria-label={`${name}の写真のSHA-256をコピー`}
          onClick={() =>
            navigator.clipboard?.writeText(sha256).then(
              () => setCopied(true),
              () => setCopied(false),
            ) ?? setCopied(false)
          }
        >
          コピー
        </button>
      </div>
      <p role="status" className="font-bold text-emerald-800">
        {copied === null ? '' : copied ? 'コピーしました' : 'コピーできませんでした'}
      </p>
    </div>
  );
}

/**
 * 鑑定品の実在証明: for each graded card with a certificate or a kept photo, the certificate as published
 * and the original photo with its SHA-256; nothing when the pack has none.
 */
export function CertifiedPrizes({
  tiers,
  committedAt,
}: {
  tiers: readonly CertifiedTier[];
  committedAt: string | null;
}) {
  const certified = tiers.filter((tier) => tier.certificate || tier.photo);
  if (certified.length === 0) return null;
  return (
    <section
      aria-labelledby="certified"
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 text-sm shadow-sm sm:p-5"
    >
      <h2 id="certified" className="text-base font-black">
        鑑定品の実在証明
      </h2>
      <p className="text-muted">
        高額な鑑定品は{committedAt ? `、パックの公開時（${formatMemberDateTime(committedAt)}）から` : ''}
        鑑定番号と写真の原本を載せています。写真は縮小も加工もせずに保存しており、SHA-256（ファイルの“指紋”）が一致すれば差し替えられていないと確かめられます。
      </p>
      <ul className="flex flex-col divide-y divide-line">
        {certified.map((tier) => (
          <li key={tier.id} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0">
            <p className="font-bold leading-snug">
              {tier.label}
              <span className="block break-words font-normal">
                {tier.cardName}
                {tier.cardGrade ? `（${tier.cardGrade}）` : ''}
              </span>
            </p>
            {tier.certificate ? <p className="font-bold">{certificateText(tier.certificate)}</p> : null}
            {tier.photo ? (
              <>
                <p>
                  <a
                    href={tier.photo.originalPath}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex min-h-11 items-center font-bold text-primary-ink underline"
                  >
                    写真の原本を開く（新しいタブ）
                  </a>
                </p>
                <Sha256Value sha256={tier.photo.sha256} name={tier.label} />
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="rounded-xl bg-canvas p-3 text-xs text-muted">
        <b className="text-ink">確かめ方</b>：写真の原本を保存し、Macは <code>shasum -a 256 ファイル名</code>、Windowsは{' '}
        <code>certutil -hashfile ファイル名 SHA256</code> を実行して、表示された64桁が上の値と同じか比べてください。
      </p>
    </section>
  );
}
