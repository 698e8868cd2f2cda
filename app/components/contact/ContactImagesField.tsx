// The contact form's images: checked and previewed as chosen (count, size, type), sent with the form.
import { useEffect, useRef, useState } from 'react';
import { INQUIRY_IMAGE_TYPES } from '#modules/support/browser';
import { FieldError, megabytes } from './fields';

export function ContactImagesField({
  limits,
  error,
  imageError,
  setImageError,
}: {
  limits: { images: number; imageMaxBytes: number };
  /** The action's refusal of the images. */
  error: string | undefined;
  /** The browser's own check of the chosen files; it holds the form back. */
  imageError: string | null;
  setImageError: (problem: string | null) => void;
}) {
  const [previews, setPreviews] = useState<{ name: string; url: string }[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => () => previews.forEach((p) => URL.revokeObjectURL(p.url)), [previews]);
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
  const imageErrorText = imageError ?? error;
  return (
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
  );
}
