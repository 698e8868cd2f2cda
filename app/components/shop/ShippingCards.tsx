// The cards of a shipping request (its confirmation and its page): a small grid of each card's image,
// tier and name, and the card sent instead when the shop could not send the prize's own.
import { Image } from '~/components/Image';

export function ShippingCards({
  items,
}: {
  items: readonly {
    prizeId: string;
    imagePath: string;
    cardName: string;
    tierLabel: string;
    substitute?: { cardName: string } | null;
  }[];
}) {
  return (
    <ul className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-5">
      {items.map((item) => (
        <li key={item.prizeId} className="text-xs">
          <Image src={item.imagePath} alt={item.cardName} width={120} height={168} className="w-full rounded-lg" />
          <span className="mt-1 block font-bold">{item.tierLabel}</span>
          <span className="line-clamp-2">{item.cardName}</span>
          {item.substitute ? (
            <span className="mt-1 block rounded bg-amber-50 p-1">
              代わりにお送りするカード: {item.substitute.cardName}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
