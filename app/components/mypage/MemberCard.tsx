// The member's card at the top of /mypage: large on the menu, one line while a tab is open.
import { UserIcon } from '~/components/icons';

/** The profile; an open tab starts at the top, so the card collapses to its name and ID. */
export function MemberCard({ name, code, compact }: { name: string; code: string; compact: boolean }) {
  return compact ? (
    <section
      aria-label="会員情報"
      className="flex items-center gap-2 rounded-2xl bg-white px-4 py-2.5 text-sm shadow-sm"
      data-testid="profile-compact"
    >
      <UserIcon className="size-5 shrink-0 text-primary-ink" />
      <p className="min-w-0 truncate font-bold" data-testid="member-name">
        {name}
      </p>
      <p className="ml-auto shrink-0 font-mono text-xs text-muted">ID {code}</p>
    </section>
  ) : (
    <section
      aria-label="会員情報"
      className="flex items-center gap-3 rounded-2xl bg-gradient-to-br from-primary to-rose-400 p-5 text-white shadow"
    >
      <div className="flex size-14 items-center justify-center rounded-full bg-white/25">
        <UserIcon className="size-8" />
      </div>
      <div className="min-w-0">
        <p className="truncate text-lg font-black" data-testid="member-name">
          {name}
        </p>
        <p className="text-xs opacity-90">
          会員ID：
          <span className="font-mono tracking-wider" data-testid="member-code">
            {code}
          </span>
        </p>
      </div>
    </section>
  );
}
