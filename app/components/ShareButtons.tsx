// LINE and X share buttons for a member's link (友達招待, フレンド): the addresses come from the server
// (server/invitation.ts shareUrlsOf) and open in a new tab.
export function ShareButtons({ share }: { share: { line: string; x: string } }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <a
        href={share.line}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex min-h-11 items-center justify-center rounded-full bg-[#00803a] px-4 text-sm font-bold text-white"
      >
        LINEで送る
      </a>
      <a
        href={share.x}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex min-h-11 items-center justify-center rounded-full bg-black px-4 text-sm font-bold text-white"
      >
        Xでポスト
      </a>
    </div>
  );
}
