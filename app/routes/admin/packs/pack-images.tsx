// The pack editor's fourth step, 画像: the pack's images and each tier's, uploaded one at a time. A graded
// card's photo is also kept as uploaded: the step shows its SHA-256 and says what goes public.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { type Data, n } from './pack-parts';

type Photo = Data['photos'][string];

function ImageUpload({
  intent,
  label,
  current,
  tierKey,
  busy,
  maxMb,
  original,
}: {
  intent: 'pack-image' | 'tier-image';
  label: string;
  current: string;
  tierKey?: string;
  busy: boolean;
  maxMb: number;
  /** A graded card's tier: its photo kept as uploaded, or null while there is none. */
  original?: { photo: Photo | null; required: boolean };
}) {
  const id = `img-${tierKey ?? 'pack'}`;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-3"
    >
      <input type="hidden" name="intent" value={intent} />
      {tierKey ? <input type="hidden" name="tierKey" value={tierKey} /> : null}
      {current ? (
        <img
          src={current}
          alt={`${label}（登録済み）`}
          width={96}
          height={96}
          className="size-24 rounded object-contain"
        />
      ) : (
        <span className="flex size-24 items-center justify-center rounded bg-slate-100 text-xs text-muted">未登録</span>
      )}
      <label className="text-xs font-bold" htmlFor={id}>
        {label}（JPEG・PNG・WebP、{maxMb}MBまで。自社で撮影・制作したもの）
        <input
          id={id}
          type="file"
          name="image"
          accept="image/jpeg,image/png,image/webp"
          required
          className="mt-1 block text-sm"
        />
      </label>
      <Button type="submit" variant="secondary" loading={busy}>
        アップロード
      </Button>
      {original ? <OriginalNote {...original} /> : null}
    </Form>
  );
}

/** What a graded card's photo becomes: its original kept and published, its hash, or what is missing. */
function OriginalNote({ photo, required }: { photo: Photo | null; required: boolean }) {
  return (
    <div className="basis-full text-xs">
      {photo ? (
        <p>
          鑑定品の写真: 原本を保存済み（
          <a href={photo.originalPath} target="_blank" rel="noreferrer" className="underline">
            原本を開く
          </a>
          ）。SHA-256 <code className="break-all font-mono">{photo.sha256}</code>
        </p>
      ) : (
        <p className={required ? 'font-bold text-danger' : 'text-muted'}>
          鑑定品の写真は原本のまま保存して公開し、SHA-256を記録します（縮小もメタデータの削除もしません）。
          {required ? 'この賞は公開に必要です。' : ''}
          位置情報（GPS）を含む写真は受け付けません。
        </p>
      )}
    </div>
  );
}

export function Images({ data, busy }: { data: Data; busy: boolean }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted">
        画像は自動で縮小され、位置情報などのメタデータは消されます。カードの写真は実物を撮影したものにしてください。鑑定品（鑑定会社を選んだ賞）の写真だけは、本物の証明として原本のまま保存・公開し、そのSHA-256をショップのページに表示します。鑑定書のラベル（鑑定番号）が読める写真にしてください。
      </p>
      <ImageUpload
        intent="pack-image"
        label="パック画像"
        current={data.pack.imagePath}
        busy={busy}
        maxMb={data.imageMaxMb}
      />
      {data.tiers.length === 0 ? <p className="text-sm">先に「賞」を入力してください。</p> : null}
      {data.tiers.map((t) => (
        <ImageUpload
          key={t.key}
          intent="tier-image"
          tierKey={t.key}
          label={`${t.label}「${t.cardName}」の写真`}
          current={t.cardImagePath}
          busy={busy}
          maxMb={data.imageMaxMb}
          original={
            t.gradeCompany
              ? {
                  photo: data.photos[t.key] ?? null,
                  required: t.conversionValue >= data.certifiedPrizeMinCoins,
                }
              : undefined
          }
        />
      ))}
      <p className="text-xs text-muted">
        交換{n(data.certifiedPrizeMinCoins)}コイン以上の鑑定品は、鑑定番号と原本の写真がないと公開できません。
      </p>
    </div>
  );
}
