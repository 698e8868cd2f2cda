// 「PR」 beside a sponsored member's win, ranking line or share (decision 083; 景品表示法's ステマ rule, in force
// since 2023-10-01): a streamer or affiliate the shop has a deal with. Its accessible name says what it means.
import { PR_LABEL, PR_LABEL_MEANING } from '#modules/identity/browser';

export function PrLabel() {
  return (
    <abbr
      title={PR_LABEL_MEANING}
      aria-label={`${PR_LABEL}（${PR_LABEL_MEANING}）`}
      className="mr-1 inline-block rounded border border-current px-1 text-[10px] leading-4 font-black no-underline"
      data-testid="pr-label"
    >
      {PR_LABEL}
    </abbr>
  );
}
