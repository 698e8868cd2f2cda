// The slices of a page or special page in the content editor: added, moved and removed, each with its form.
import { useState, type Dispatch, type SetStateAction } from 'react';
import { Button } from '~/components/Button';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { inputClass } from '~/components/admin/fields';
import type { EditorPayload, EditorSlice } from '~/controllers/admin-content.server';
import { label } from './form';
import { NEW_SLICES, SLICE_NAMES, SliceForm } from './SliceForm';

/** The slices fieldset; the payload state stays with the editor, which saves it as one JSON field. */
export function SliceList({
  payload,
  setPayload,
}: {
  payload: EditorPayload;
  setPayload: Dispatch<SetStateAction<EditorPayload>>;
}) {
  const setSlice = (index: number, slice: EditorSlice) =>
    setPayload((p) => ({ ...p, slices: p.slices.map((s, i) => (i === index ? slice : s)) }));
  const moveSlice = (index: number, by: -1 | 1) =>
    setPayload((p) => {
      const slices = [...p.slices];
      const other = index + by;
      if (other < 0 || other >= slices.length) return p;
      [slices[index], slices[other]] = [slices[other]!, slices[index]!];
      return { ...p, slices };
    });
  const [newSlice, setNewSlice] = useState<EditorSlice['kind']>('text');
  // Slices have no id of their own in the editor: a counter keys them so moving keeps their editors.
  const [sliceKeys, setSliceKeys] = useState(() => payload.slices.map((_, i) => i));
  const [nextKey, setNextKey] = useState(payload.slices.length);
  /** The slice whose removal is being asked about. */
  const [removing, setRemoving] = useState<number | null>(null);
  const removingSlice = removing === null ? undefined : payload.slices[removing];
  const remove = (index: number) => {
    setPayload((p) => ({ ...p, slices: p.slices.filter((_, i) => i !== index) }));
    setSliceKeys((keys) => keys.filter((_, i) => i !== index));
    setRemoving(null);
  };

  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-bold">スライス（本文のあとに順に表示）</legend>
      {payload.slices.map((slice, index) => (
        <div key={sliceKeys[index]} className="rounded-xl border border-line p-3" data-testid="editor-slice">
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <span className="text-sm font-bold">
              スライス{index + 1}：{SLICE_NAMES[slice.kind]}
            </span>
            <Button
              type="button"
              variant="plain"
              disabled={index === 0}
              aria-label={`スライス${index + 1}を上へ`}
              onClick={() => {
                moveSlice(index, -1);
                setSliceKeys((keys) => {
                  const next = [...keys];
                  [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
                  return next;
                });
              }}
            >
              上へ
            </Button>
            <Button
              type="button"
              variant="plain"
              disabled={index === payload.slices.length - 1}
              aria-label={`スライス${index + 1}を下へ`}
              onClick={() => {
                moveSlice(index, 1);
                setSliceKeys((keys) => {
                  const next = [...keys];
                  [next[index + 1], next[index]] = [next[index]!, next[index + 1]!];
                  return next;
                });
              }}
            >
              下へ
            </Button>
            <Button
              type="button"
              variant="plain"
              aria-label={`スライス${index + 1}を削除`}
              onClick={() => setRemoving(index)}
            >
              削除
            </Button>
          </div>
          <SliceForm slice={slice} n={index + 1} onChange={(s) => setSlice(index, s)} />
        </div>
      ))}
      <div className="flex flex-wrap items-end gap-2">
        <label className={label}>
          追加するスライス
          <select
            value={newSlice}
            onChange={(e) => setNewSlice(e.target.value as EditorSlice['kind'])}
            className={inputClass}
          >
            {(Object.keys(SLICE_NAMES) as EditorSlice['kind'][]).map((kind) => (
              <option key={kind} value={kind}>
                {SLICE_NAMES[kind]}
              </option>
            ))}
          </select>
        </label>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            setPayload((p) => ({ ...p, slices: [...p.slices, NEW_SLICES[newSlice]()] }));
            setSliceKeys((keys) => [...keys, nextKey]);
            setNextKey((k) => k + 1);
          }}
        >
          スライスを追加
        </Button>
      </div>
      {removing !== null && removingSlice ? (
        <ConfirmDialog
          title={`スライス${removing + 1}（${SLICE_NAMES[removingSlice.kind]}）を削除しますか？`}
          confirmLabel="削除する"
          confirmVariant="danger"
          onConfirm={() => remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </fieldset>
  );
}
