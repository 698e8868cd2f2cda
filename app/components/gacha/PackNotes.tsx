// The pack page's 注意事項.

export function PackNotes({ decisionDays }: { decisionDays: number }) {
  return (
    <section aria-labelledby="notes" className="rounded-2xl bg-white p-5 text-sm leading-relaxed text-muted shadow-sm">
      <h2 id="notes" className="mb-2 text-base font-black text-ink">
        注意事項
      </h2>
      <ul className="ml-5 list-disc space-y-1">
        <li>ハズレはありません。すべての口にカードが入っています。</li>
        <li>カードの状態は中古品のため、多少の傷や汚れがある場合があります。</li>
        <li>画像はイメージです。実際の商品と異なる場合があります。</li>
        <li>抽選後のキャンセル・返品はできません。</li>
        <li>
          獲得したカードは{decisionDays}
          日以内にコイン交換か発送用の保管を選べます。期限を過ぎると自動でコインに交換されます。保管したカードは獲得商品から発送を申し込めます。
        </li>
      </ul>
    </section>
  );
}
