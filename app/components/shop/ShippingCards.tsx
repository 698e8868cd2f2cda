// The cards of a shipping request (its confirmation and its page): a small grid of each card's image,
// tier and name.
import { Image } from '~/components/Image';

export function ShippingCards({
  items,
}: {
  items: readonly { prizeId: string; imagePath: string; cardName: string; tierLabel: string }[];
}) {
  return (
    <ul className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-5">
      {items.map((item) => (
        <li key={item.prizeId} className="text-xs">
          <Image src={item.imagePath} alt={item.cardName} width={120} height={168} className="w-full rounded-lg" />
          <span className="mt-1 block font-bold">{item.tierLabel}</span>
          <span className="line-clamp-2">{item.cardName}</span>
        </li>
      ))}
    </ul>
  );
}
