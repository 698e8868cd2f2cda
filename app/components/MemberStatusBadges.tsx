// A member's status in the operators' console: deleted, banned, purchases held, staff role, or ordinary.
export function MemberStatusBadges({
  member,
}: {
  member: { banned: boolean; deleted: boolean; hold: string | null; role: string; roleLabel: string };
}) {
  return (
    <span className="flex flex-wrap gap-1">
      {member.deleted ? <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-bold">退会済み</span> : null}
      {member.banned ? (
        <span className="rounded bg-red-600 px-1.5 py-0.5 text-xs font-bold text-white">利用停止</span>
      ) : null}
      {member.hold ? (
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-bold text-amber-900">
          購入・発送停止（{member.hold}）
        </span>
      ) : null}
      {member.role !== 'user' ? (
        <span className="rounded bg-ink px-1.5 py-0.5 text-xs font-bold text-white">{member.roleLabel}</span>
      ) : null}
      {!member.deleted && !member.banned && !member.hold ? <span className="text-xs text-muted">通常</span> : null}
    </span>
  );
}
