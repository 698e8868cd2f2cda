// /gacha/{genreId}/{gachaId} (layout gacha-detail): pack, price, remaining lots, line-up and notes.
// redirect-onepiece has already sent a pack opened under the wrong genre to its own address.
import { useId } from 'react';
import type { Route } from './+types/detail';
import { shopRequestContext } from '~/context';
import { Image } from '~/components/Image';
import { AppLink } from '~/components/AppLink';
import { EmptyState, Container } from '~/components/PageFrame';
import { Button } from '~/components/Button';
import { notFound } from '~/lib/not-found';
import { formatCoins } from '~/lib/numbers';
import { getGacha, listGenres } from '../../../modules/gacha';

export const handle = { title: (data: { pack: { title: string } }) => data.pack.title };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db } = context.get(shopRequestContext).services;
  const pack = await getGacha(db, params.gachaId);
  if (!pack || pack.genreId !== params.genreId) throw notFound(new URL(request.url).pathname);
  const genre = (await listGenres(db)).find((g) => g.id === pack.genreId);
  return { pack, genreName: genre?.name ?? pack.genreId };
}

const DRAW_OPTIONS = [
  { count: 1, label: '1回' },
  { count: 10, label: '10連' },
  { count: 100, label: '100連' },
] as const;

export default function GachaDetail({ loaderData }: Route.ComponentProps) {
  const { pack, genreName } = loaderData;
  const drawn = pack.totalLots - pack.remainingLots;
  const onSale = pack.status === 'on_sale' && pack.remainingLots > 0;
  const ratio = pack.totalLots > 0 ? pack.remainingLots / pack.totalLots : 0;
  return (
    <Container className="flex flex-col gap-5">
      <nav aria-label="パンくずリスト" className="text-xs text-muted">
        <ol className="flex flex-wrap items-center gap-1">
          <li><AppLink to="/" className="hover:underline">トップ</AppLink></li>
          <li aria-hidden="true">›</li>
          <li><AppLink to={`/gacha/${pack.genreId}`} className="hover:underline">{genreName}</AppLink></li>
          <li aria-hidden="true">›</li>
          <li aria-current="page" className="line-clamp-1 text-ink">{pack.title}</li>
        </ol>
      </nav>
      <div className="grid gap-5 md:grid-cols-2">
        <div className="overflow-hidden rounded-2xl bg-white shadow-sm">
          <Image src={pack.imagePath} alt={pack.title} width={1200} height={900} sizes="(min-width: 768px) 50vw, 100vw" priority className="aspect-[4/3] h-auto w-full object-cover" />
        </div>
        <section className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" aria-labelledby="pack-title">
          <h1 id="pack-title" className="text-xl font-black leading-snug">{pack.title}</h1>
          <p className="text-2xl font-black text-primary-ink">
            {formatCoins(pack.pricePerDraw)}<span className="text-sm">コイン</span><span className="text-sm font-bold text-muted"> / 1回</span>
          </p>
          <dl className="grid grid-cols-3 gap-2 text-center">
            {[
              ['総口数', pack.totalLots],
              ['残り口数', pack.remainingLots],
              ['消化口数', drawn],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl bg-canvas py-2">
                <dt className="text-[11px] text-muted">{label}</dt>
                <dd className="text-base font-black">{formatCoins(value as number)}</dd>
              </div>
            ))}
          </dl>
          <div className="h-2 overflow-hidden rounded-full bg-canvas" role="progressbar" aria-label="残り口数" aria-valuemin={0} aria-valuemax={pack.totalLots} aria-valuenow={pack.remainingLots}>
            <div className={`h-full rounded-full ${ratio < 0.2 ? 'bg-red-500' : 'bg-primary'}`} style={{ width: `${Math.round(ratio * 100)}%` }} />
          </div>
          <div className="hidden md:block"><DrawButtons onSale={onSale} remaining={pack.remainingLots} /></div>
        </section>
      </div>
      <section aria-labelledby="lineup" className="flex flex-col gap-3">
        <h2 id="lineup" className="text-lg font-black">ラインナップ</h2>
        <EmptyState title="賞品ラインナップは公開準備中です">
          各賞の残り数と当選カードは、抽選の公開とあわせてこちらに表示されます。
        </EmptyState>
      </section>
      <section aria-labelledby="notes" className="rounded-2xl bg-white p-5 text-sm leading-relaxed text-muted shadow-sm">
        <h2 id="notes" className="mb-2 text-base font-black text-ink">注意事項</h2>
        <ul className="ml-5 list-disc space-y-1">
          <li>カードの状態は中古品のため、多少の傷や汚れがある場合があります。</li>
          <li>画像はイメージです。実際の商品と異なる場合があります。</li>
          <li>抽選後のキャンセル・返品はできません。</li>
          <li>獲得したカードは14日以内に発送またはコイン交換を選べます。期限を過ぎると自動でコインに交換されます。</li>
        </ul>
      </section>
      <div className="fixed inset-x-0 bottom-0 z-tabbar border-t border-line bg-white p-3 pb-safe md:hidden">
        <p className="mb-2 flex justify-between text-xs text-muted">
          <span><b className="text-primary-ink">{formatCoins(pack.pricePerDraw)}コイン</b> / 1回</span>
          <span>残り {formatCoins(pack.remainingLots)} / {formatCoins(pack.totalLots)}口</span>
        </p>
        <DrawButtons onSale={onSale} remaining={pack.remainingLots} />
      </div>
    </Container>
  );
}

function DrawButtons({ onSale, remaining }: { onSale: boolean; remaining: number }) {
  const noteId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <div className="grid grid-cols-3 gap-2">
        {DRAW_OPTIONS.map((option) => (
          // Drawing opens with the draw feature; until then no button pretends to work.
          <Button key={option.count} size="lg" disabled aria-describedby={noteId} className="!px-2" title={remaining < option.count ? `残り${remaining}口です` : undefined}>
            {option.label}
          </Button>
        ))}
      </div>
      <p id={noteId} className="text-center text-xs text-muted" role="note">
        {onSale ? 'オンライン抽選は準備中です。公開まで今しばらくお待ちください。' : 'このオリパは完売しました。'}
      </p>
    </div>
  );
}
