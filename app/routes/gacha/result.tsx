// /gacha/{genreId}/{gachaId}/result/{resultId} (layout gacha-result): the reveal animation, chosen
// by the best tier won and landing on it, then the cards with their choices. Only the member who
// drew sees it; anyone else gets the not-found page (a result's existence is not revealed).
import { useEffect, useState } from 'react';
import { gachaEvent, track } from '~/lib/analytics';
import { useRootData } from '~/lib/root-data';
import { redirect, useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/result';
import { shopRequestContext } from '~/context';
import { Container } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';
import { Reveal, type RevealItem } from '~/components/reveal';
import { PrizeList } from '~/components/gacha/PrizeList';
import { notFound } from '~/lib/not-found';
import { formatCoins } from '~/lib/numbers';
import { formatYmdHm } from '~/lib/dates';
import { prizeChoiceAction, type PrizeActionData } from '~/lib/prize-actions.server';
import { getDrawResult } from '../../../modules/draw';
import { getGacha } from '../../../modules/gacha';
import { getBalance } from '../../../modules/wallet';

export const handle = { title: '抽選結果' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  // An id that cannot be a result is not found for anyone; a possible one needs its member signed in.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(params.resultId)) throw notFound(url.pathname);
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(url.pathname)}`);
  const result = await getDrawResult(shop.services.db, shop.member.id, params.resultId);
  if (!result || result.gachaId !== params.gachaId) throw notFound(url.pathname);
  const pack = await getGacha(shop.services.db, result.gachaId);
  if (!pack || pack.genreId !== params.genreId) throw notFound(url.pathname);
  const balance = await getBalance(shop.services.db, shop.member.id);
  return { result, pack: { id: pack.id, title: pack.title, genreId: pack.genreId }, balance, renderedAt: new Date().toISOString() };
}

export async function action({ request, context }: Route.ActionArgs) {
  return prizeChoiceAction(context.get(shopRequestContext), request);
}

export default function GachaResult({ loaderData, actionData }: Route.ComponentProps) {
  const { result, pack, balance } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [revealing, setRevealing] = useState(params.get('reveal') === '1');
  const memberId = useRootData()?.member?.id;
  useEffect(() => {
    // The gacha event, once per draw: on the first view, the one that plays the reveal.
    if (params.get('reveal') === '1' && memberId) track(gachaEvent(memberId, pack.id));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result.drawId]);
  const outcome = actionData as PrizeActionData | undefined;
  // A prize carries every field the reveal needs.
  const items: RevealItem[] = result.items;
  const finishReveal = () => {
    setRevealing(false);
    // The animation plays once: a reload or a shared link shows the cards directly.
    navigate(`/gacha/${pack.genreId}/${pack.id}/result/${result.drawId}`, { replace: true, preventScrollReset: true });
  };
  return (
    <Container className="flex flex-col gap-5 py-4">
      {revealing && <Reveal items={items} onDone={finishReveal} />}
      <header className="flex flex-col gap-1">
        <h1 className="text-xl font-black">抽選結果</h1>
        <p className="text-sm text-slate-300">
          {pack.title}・{result.count === 1 ? '1回' : `${result.count}連`}・{formatCoins(result.cost)}コイン・{formatYmdHm(result.createdAt, 'slash')}
        </p>
        {result.lastOne && <p className="w-fit rounded-full bg-tier-last px-3 py-1 text-sm font-black text-white">ラストワン賞を獲得しました！</p>}
      </header>
      <p className="rounded-2xl bg-white p-4 text-sm text-ink shadow-sm">
        所持コイン <b className="text-lg" data-testid="result-balance">{formatCoins(balance.total)}</b>
        <span className="text-muted">（有償 {formatCoins(balance.paid)}・無償 {formatCoins(balance.free)}）</span>
      </p>
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={`rounded-xl p-3 text-sm font-bold ${outcome.ok ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-700'}`}>
          {outcome.message}
        </p>
      )}
      <p className="text-sm text-slate-300">
        カードごとに「コインに交換」か「発送用に保管」を選べます。期限までに選ばなかったカードは自動でコインに交換されます。
      </p>
      <PrizeList prizes={result.items} renderedAt={loaderData.renderedAt} />
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <ButtonLink to={`/gacha/${pack.genreId}/${pack.id}`} size="lg" fullWidth>もう一度引く</ButtonLink>
        <ButtonLink to="/mypage?tab=prizes" variant="secondary" size="lg" fullWidth>獲得商品を見る</ButtonLink>
      </div>
    </Container>
  );
}
