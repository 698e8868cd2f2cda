// /admin/packs/:packId: the pack editor's steps for a draft (基本情報 → 販売設定 → 賞 → 画像 →
// 確認・公開), and for a published pack its terms read-only with end early, copy and the reveal.
import { Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/pack';
import { shopRequestContext } from '#server/context';
import { packEditorAction, packEditorLoader } from '~/controllers/admin-packs.server';
import type { PackEditorAnswer } from '~/lib/admin-packs';
import { PackAnswer, Steps } from './pack-parts';
import { Basics } from './pack-basics';
import { Images } from './pack-images';
import { CopyForm, Published } from './pack-published';
import { Review } from './pack-review';
import { Sale } from './pack-sale';
import { Tiers } from './pack-tiers';

export const handle = { title: (data: { pack?: { title: string } }) => `パック編集: ${data?.pack?.title ?? ''}` };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return packEditorLoader(context.get(shopRequestContext), request, params.packId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return packEditorAction(context.get(shopRequestContext), request, params.packId);
}

export default function PackEditorPage({ loaderData }: Route.ComponentProps) {
  const data = loaderData;
  const answer = useActionData<PackEditorAnswer>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const { pack, step, draft } = data;
  return (
    <div className="grid max-w-5xl gap-4">
      <div>
        <p className="text-sm">
          <Link to="/admin/packs" className="underline">
            パック一覧
          </Link>
        </p>
        <h1 className="text-2xl font-black">{pack.title}</h1>
        <p className="text-sm text-muted">
          {pack.statusLabel}・<span className="font-mono">{pack.id}</span>
        </p>
        {draft ? <Steps step={step} packId={pack.id} /> : null}
      </div>
      <PackAnswer answer={answer} />
      {!draft ? (
        <Published data={data} busy={busy} />
      ) : step === 'basics' ? (
        <Basics data={data} answer={answer} busy={busy} />
      ) : step === 'sale' ? (
        <Sale data={data} answer={answer} busy={busy} />
      ) : step === 'tiers' ? (
        <Tiers data={data} answer={answer} busy={busy} />
      ) : step === 'images' ? (
        <Images data={data} busy={busy} />
      ) : (
        <Review data={data} answer={answer} busy={busy} />
      )}
      <CopyForm data={data} answer={answer} busy={busy} />
    </div>
  );
}
