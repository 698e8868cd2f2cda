// The closure's notice at the top of every page once it is announced (decision 085): when sales stop (or that they
// have), until when unused paid coins are refunded, and the links to the public notice and the application.
import { Link } from 'react-router';
import type { RootData } from '~/lib/root-data';

export function ClosureBanner({ closure }: { closure: NonNullable<RootData['closure']> }) {
  return (
    <div
      role="region"
      aria-label="閉店のお知らせ"
      className="relative z-[2000] border-b border-red-300 bg-red-50 px-4 py-2.5 text-sm text-red-950"
      data-testid="closure-banner"
    >
      <div className="mx-auto max-w-5xl">
        <p className="font-bold">
          {closure.stopped
            ? `閉店のお知らせ：${closure.salesStopText}（日本時間）をもって販売を終了しました。`
            : `閉店のお知らせ：${closure.salesStopText}（日本時間）をもってコインの販売とガチャを終了します。`}
        </p>
        <p className="mt-0.5">
          未使用の有償コインは1コイン1円で払い戻します。申出期限：{closure.refundDeadlineText}（日本時間）
        </p>
        <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/closure" className="font-bold underline underline-offset-2">
            公告を読む
          </Link>
          <Link to="/mypage/refund" className="font-bold underline underline-offset-2">
            払戻しを申し込む
          </Link>
        </p>
      </div>
    </div>
  );
}
