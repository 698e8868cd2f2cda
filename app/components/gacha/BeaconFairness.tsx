// A beacon pack's fairness section on its page (decision 081): what is committed, and why nobody — the shop
// included — can know a draw's outcome before it is settled. Loaded only for a beacon pack (PackDisclosure).
import { formatMemberDateTime } from '#modules/kernel/dates';

/** A beacon pack's proof (decision 081): what is committed, and why nobody can know a draw's outcome in advance. */
export default function BeaconFairness({
  commitment,
  committedAt,
}: {
  commitment: string;
  committedAt: string | null;
}) {
  return (
    <section
      aria-labelledby="fairness"
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 text-sm shadow-sm sm:p-5"
      data-testid="beacon-fairness"
    >
      <h2 id="fairness" className="text-base font-black">
        公平性の証明（ビーコン抽選）
      </h2>
      <p className="text-muted">
        このオリパには「口の順番」がありません。販売開始時に、賞の構成（どのカードが何枚あるか）、キリ番賞・ラストワン賞のルール、当たりの決め方、使う乱数（drand
        の公開乱数ビーコン）と受付証の署名鍵をまとめた“指紋”（コミットメント）を公開しています。
      </p>
      <p className="text-muted">
        引くと、まずコインと口が確保され、ショップの署名付きの受付証が届きます。当たりは、その後に公開される drand
        の乱数で決まります。この乱数は世界中の独立した運営者によるしきい値署名で、ショップを含めて誰も事前に知ることも選ぶこともできません。結果ページでは、あなたのスマホがこれを自分で検証し、✓
        で示します。
      </p>
      <div>
        <p className="text-xs font-bold text-muted">
          コミットメント（{committedAt ? formatMemberDateTime(committedAt) : ''} 公開）
        </p>
        <code className="block break-all rounded-lg bg-canvas p-2 font-mono text-xs" data-testid="commitment">
          {commitment}
        </code>
      </div>
    </section>
  );
}
