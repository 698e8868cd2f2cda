// /admin/invitations: who invites how many (decision 038): invitations per inviter, rewarded, capped,
// refused and pending, the most active first, each linked to the member's page. Read only.
import type { Route } from './+types/invitations';
import { shopRequestContext } from '#server/context';
import { ListTable } from '~/components/admin/ListPage';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { requireOperator } from '~/controllers/admin.server';
import { memberTagsFor } from '~/controllers/member-tags.server';
import { inviterSummaries } from '#modules/invitation';

export const handle = { title: '友達招待' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const operator = await requireOperator(shop, request, 'members:read');
  const rows = await inviterSummaries(shop.services.db, 100);
  return {
    members: await memberTagsFor(
      shop.services.db,
      operator,
      rows.map((r) => r.inviterId),
    ),
    rows: rows.map((r) => ({ ...r, lastAttachedAt: r.lastAttachedAt.toISOString() })),
    cap: shop.services.config.INVITATION_MONTHLY_CAP,
    coins: shop.services.config.INVITATION_REWARD_COINS,
  };
}

export default function AdminInvitations({ loaderData }: Route.ComponentProps) {
  const { rows, cap, coins, members } = loaderData;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">友達招待</h1>
      <p className="mt-1 text-sm text-muted">
        {`招待した会員ごとの件数です（多い順、100人まで）。特典は1人${coins.toLocaleString('ja-JP')}コインを双方に、招待する側は月${cap}人まで（日本時間）。不正の疑い（同じ電話番号・端末、本人の別アカウント）は対象外になります。`}
      </p>
      <ListTable
        items={rows}
        empty="まだ招待はありません。"
        caption="招待した会員ごとの件数"
        cellClass="px-3 py-2"
        head={[
          '会員',
          ['招待', 'text-right'],
          ['付与済み', 'text-right'],
          ['上限で対象外', 'text-right'],
          ['不正の疑い・対象外', 'text-right'],
          ['条件待ち', 'text-right'],
          '最後の招待',
        ]}
        row={(row) => (
          <tr key={row.inviterId} className="border-t border-line">
            <td className="px-3 py-2">
              <MemberTag tag={members[row.inviterId]} memberId={row.inviterId} />
            </td>
            <td className="px-3 py-2 text-right">{row.invited}</td>
            <td className="px-3 py-2 text-right">{row.rewarded}</td>
            <td className="px-3 py-2 text-right">{row.capped}</td>
            <td className={`px-3 py-2 text-right ${row.refused > 0 ? 'font-bold text-red-700' : ''}`}>{row.refused}</td>
            <td className="px-3 py-2 text-right">{row.pending}</td>
            <td className="px-3 py-2 whitespace-nowrap">{formatStaffDateTime(row.lastAttachedAt)}</td>
          </tr>
        )}
      />
    </div>
  );
}
