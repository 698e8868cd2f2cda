// The pack editor's fourth step, 画像: the pack's images and each tier's, uploaded one at a time.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { type Data } from './pack-parts';

function ImageUpload({
  intent,
  label,
  current,
  tierKey,
  busy,
  maxMb,
}: {
  intent: 'pack-image' | 'tier-image';
  label: string;
  current: string;
  tierKey?: string;
  busy: boolean;
  maxMb: number;
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
    </Form>
  );
}

export function Images({ data, busy }: { data: Data; busy: boolean }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted">
        画像は自動で縮小され、位置情報などのメタデータは消されます。カードの写真は実物を撮影したものにしてください。
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
        />
      ))}
    </div>
  );
}
