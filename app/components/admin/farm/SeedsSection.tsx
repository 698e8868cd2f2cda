// The farm's seed table: edit in a sheet, add, stop or resume, delete a never-planted seed after asking.
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { FarmActionData } from '~/controllers/admin-farm.server';
import { minutesText, type FarmPage, type Seed } from './NumberInput';
import { SeedForm } from './SeedForm';

type BusyOn = (intent: string, id?: string) => boolean;

/** One seed's row: its numbers, its state, and its edit, stop or resume, and delete buttons. */
function SeedRow({
  seed: s,
  artLabel,
  answer,
  busyOn,
  onEdit,
  onDelete,
}: {
  seed: Seed;
  artLabel: string;
  answer: FarmActionData | undefined;
  busyOn: BusyOn;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <tr className="border-b border-line align-top last:border-0">
      <th scope="row" className="py-2 pr-2 font-bold">
        {s.name}
        <span className="block font-mono text-xs font-normal text-muted">{s.id}</span>
        {answer ? (
          <div className="mt-1 font-normal">
            <ActionAnswer answer={answer} form={s.id} />
          </div>
        ) : null}
      </th>
      <td className="py-2 pr-2">{artLabel}</td>
      <td className="py-2 pr-2 text-right tabular-nums">
        {s.growMinutes}分
        {s.growMinutes >= 60 ? <span className="block text-xs text-muted">{minutesText(s.growMinutes)}</span> : null}
      </td>
      <td className="py-2 pr-2 text-right tabular-nums">{s.rewardCoins}コイン</td>
      <td className="py-2 pr-2 text-right tabular-nums">Lv.{s.unlockLevel}〜</td>
      <td className="py-2 pr-2 text-right tabular-nums">{s.sort}</td>
      <td className="py-2 pr-2">
        <span
          className={`rounded px-2 py-0.5 text-xs font-bold ${s.active ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-ink'}`}
        >
          {s.active ? '植えられる' : '停止中'}
        </span>
      </td>
      <td className="py-2">
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="plain" onClick={onEdit} aria-label={`${s.name}を編集`}>
            編集
          </Button>
          <Form method="post">
            <input type="hidden" name="id" value={s.id} />
            <input type="hidden" name="intent" value={s.active ? 'seed-deactivate' : 'seed-activate'} />
            <Button
              type="submit"
              variant="plain"
              loading={busyOn(s.active ? 'seed-deactivate' : 'seed-activate', s.id)}
              aria-label={s.active ? `${s.name}を停止する` : `${s.name}を植えられるようにする`}
            >
              {s.active ? '停止する' : '再開する'}
            </Button>
          </Form>
          <Button type="button" variant="plain" onClick={onDelete} aria-label={`${s.name}を削除`}>
            削除…
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** The deletion asked for in the confirmation dialog; only a never-planted seed can go. */
function SeedDeleteDialog({
  seed: deleting,
  answer,
  busyOn,
  onCancel,
}: {
  seed: Seed;
  answer: FarmActionData | undefined;
  busyOn: BusyOn;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      title={`種「${deleting.name}」を削除しますか？`}
      confirmLabel="削除する"
      confirmVariant="danger"
      hidden={{ intent: 'seed-delete', id: deleting.id, confirmed: 'yes' }}
      busy={busyOn('seed-delete')}
      onCancel={onCancel}
      bodyClassName="mt-3 grid gap-3"
    >
      <p className="text-sm">
        一度も植えられていない種だけ削除できます。会員が植えたことのある種は削除せず、「停止する」で植えられないようにしてください。
      </p>
      <ActionAnswer answer={answer?.error ? answer : undefined} form={deleting.id} />
    </ConfirmDialog>
  );
}

export function SeedsSection({ data, answer }: { data: FarmPage; answer: FarmActionData | undefined }) {
  const { seeds, arts, limits } = data;
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' ? navigation.formData : undefined;
  const busyOn = (intent: string, id?: string) =>
    submitting?.get('intent') === intent && (id === undefined || submitting.get('id') === id);
  /** The sheet open now: a seed's id, 'new', or a deletion to confirm. */
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Seed | null>(null);
  useEffect(() => {
    if (answer?.ok) {
      setEditing(null);
      setDeleting(null);
    }
  }, [answer]);
  const artLabel = (art: string) => arts.find((a) => a.art === art)?.label ?? art;
  const editingSeed = editing && editing !== 'new' ? (seeds.find((s) => s.id === editing) ?? null) : null;
  const rowAnswer = (id: string) => (answer?.form === id && !(editing === id && answer.error) ? answer : undefined);
  return (
    <section aria-labelledby="farm-seeds" className="mt-8 rounded-2xl border border-line bg-white p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="farm-seeds" className="text-lg font-bold">
          種（{seeds.length}種類）
        </h2>
        <Button type="button" variant="secondary" onClick={() => setEditing('new')}>
          種を追加する
        </Button>
      </div>
      <p className="mt-1 text-xs text-muted">
        変更は新しく植える作物から適用されます。一度でも植えられた種は削除できません（停止すると植えられなくなります）。
      </p>
      <ActionAnswer answer={answer} form="deleted" />
      <ActionAnswer answer={answer?.ok ? answer : undefined} form="new" />
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">種の一覧</caption>
          <thead>
            <tr className="border-b border-line text-xs">
              <th scope="col" className="py-2 pr-2">
                名前・ID
              </th>
              <th scope="col" className="py-2 pr-2">
                絵柄
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                育つ時間
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                報酬
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                レベル
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                表示順
              </th>
              <th scope="col" className="py-2 pr-2">
                状態
              </th>
              <th scope="col" className="py-2">
                操作
              </th>
            </tr>
          </thead>
          <tbody>
            {seeds.map((s) => (
              <SeedRow
                key={s.id}
                seed={s}
                artLabel={artLabel(s.art)}
                answer={rowAnswer(s.id)}
                busyOn={busyOn}
                onEdit={() => setEditing(s.id)}
                onDelete={() => setDeleting(s)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {editing ? (
        <Sheet
          title={editingSeed ? `種「${editingSeed.name}」を編集` : '種を追加する'}
          onClose={() => setEditing(null)}
          busy={busyOn('seed-save') || busyOn('seed-create')}
        >
          <SeedForm
            key={editing}
            seed={editingSeed}
            arts={arts}
            limits={limits}
            answer={answer}
            busy={busyOn('seed-save') || busyOn('seed-create')}
            onCancel={() => setEditing(null)}
          />
        </Sheet>
      ) : null}
      {deleting ? (
        <SeedDeleteDialog seed={deleting} answer={answer} busyOn={busyOn} onCancel={() => setDeleting(null)} />
      ) : null}
    </section>
  );
}
