// /admin/shipping/batch?id=…: a batch printed for the packing table. First the pick list (each card
// once, with its set, number, grade, photo, how many and for which parcels), then one packing slip per
// parcel on its own page (the recipient, the address and the cards). Opening it is audited per request.
import type { Route } from './+types/batch';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { Image } from '~/components/Image';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { shippingBatchLoader } from '~/controllers/admin-shipping.server';

export const handle = { title: 'ピッキングリスト・納品書' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return shippingBatchLoader(context.get(shopRequestContext), request);
}

const cardFacts = (c: {
  cardSet: string | null;
  cardNumber: string | null;
  rarity: string | null;
  cardGrade: string | null;
}) => [c.cardSet, c.cardNumber, c.rarity, c.cardGrade].filter(Boolean).join('・') || '—';

export default function ShippingBatchPage({ loaderData }: Route.ComponentProps) {
  const { parcels, picks, printedAt, siteName } = loaderData;
  const cards = parcels.reduce((sum, p) => sum + p.items.length, 0);
  return (
    <div className="max-w-4xl print:max-w-none">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h1 className="text-2xl font-black">ピッキングリスト・納品書</h1>
        <Button onClick={() => window.print()}>印刷する</Button>
      </div>

      <section aria-labelledby="picks" className="mt-4 break-after-page">
        <h2 id="picks" className="text-lg font-bold">
          ピッキングリスト（{parcels.length}件・{cards}枚）
        </h2>
        <p className="text-xs text-muted">印刷 {formatStaffDateTime(printedAt)}</p>
        <table className="mt-2 w-full border-collapse text-left text-sm">
          <thead>
            <tr className="border-b-2 border-ink text-xs">
              <th scope="col" className="p-2">
                写真
              </th>
              <th scope="col" className="p-2">
                カード
              </th>
              <th scope="col" className="p-2">
                セット・番号・グレード
              </th>
              <th scope="col" className="p-2 text-right">
                枚数
              </th>
              <th scope="col" className="p-2">
                荷物
              </th>
              <th scope="col" className="p-2">
                済
              </th>
            </tr>
          </thead>
          <tbody>
            {picks.map((p) => (
              <tr key={p.key} className="border-b border-line align-top">
                <td className="p-2">
                  <Image src={p.imagePath} alt="" width={48} height={67} className="h-[67px] w-12 rounded" />
                </td>
                <td className="p-2">
                  <span className="block font-bold">{p.cardName}</span>
                  <span className="block text-xs text-muted">
                    {p.gachaTitle}・{p.tierLabel}
                  </span>
                </td>
                <td className="p-2 text-xs">{cardFacts(p)}</td>
                <td className="p-2 text-right text-base font-black">{p.count}</td>
                <td className="p-2 text-xs">{p.parcels.map((n) => `#${n}`).join(' ')}</td>
                <td className="p-2">
                  <span aria-hidden="true" className="inline-block size-5 border border-ink" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {parcels.map((parcel, index) => (
        <section
          key={parcel.requestId}
          aria-label={`納品書 #${index + 1}`}
          className="mt-8 break-after-page rounded-2xl border border-line bg-white p-6 print:mt-0 print:border-0 print:p-0"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-xl font-black">納品書</h2>
            <p className="text-sm">
              荷物 #{index + 1}・依頼ID <span className="font-mono">{parcel.requestId}</span>
            </p>
          </div>
          <p className="mt-4 text-sm leading-relaxed">
            〒{parcel.address.postalCode.slice(0, 3)}-{parcel.address.postalCode.slice(3)}
            <br />
            {parcel.address.prefecture}
            {parcel.address.city}
            {parcel.address.town}
            {parcel.address.building ? (
              <>
                <br />
                {parcel.address.building}
              </>
            ) : null}
          </p>
          <p className="mt-1 text-lg font-bold">{parcel.address.name} 様</p>
          <p className="mt-3 text-sm">
            このたびは{siteName}をご利用いただきありがとうございます。獲得されたカードをお届けします。
          </p>
          <table className="mt-4 w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b-2 border-ink text-xs">
                <th scope="col" className="p-2">
                  写真
                </th>
                <th scope="col" className="p-2">
                  カード
                </th>
                <th scope="col" className="p-2">
                  セット・番号・グレード
                </th>
                <th scope="col" className="p-2">
                  ガチャ・賞
                </th>
              </tr>
            </thead>
            <tbody>
              {parcel.items.map((item) => (
                <tr key={item.prizeId} className="border-b border-line align-top">
                  <td className="p-2">
                    <Image src={item.imagePath} alt="" width={48} height={67} className="h-[67px] w-12 rounded" />
                  </td>
                  <td className="p-2 font-bold">
                    {item.substitute ? item.substitute.cardName : item.cardName}
                    {item.substitute ? (
                      <span className="block text-xs font-normal">（「{item.cardName}」の代わりのカード）</span>
                    ) : null}
                  </td>
                  <td className="p-2 text-xs">
                    {cardFacts(item.substitute ? { ...item.substitute, rarity: null } : item)}
                  </td>
                  <td className="p-2 text-xs">
                    {item.gachaTitle}・{item.tierLabel}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-4 text-right text-sm">計 {parcel.items.length} 点</p>
        </section>
      ))}
    </div>
  );
}
