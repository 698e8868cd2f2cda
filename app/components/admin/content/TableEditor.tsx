// The table slice's editor: cells, a header row, and rows and columns added or removed at the end.
import { Button } from '~/components/Button';
import type { EditorSlice } from '~/controllers/admin-content.server';

export function TableEditor({
  slice,
  onChange,
  n,
}: {
  slice: Extract<EditorSlice, { kind: 'table' }>;
  onChange: (s: EditorSlice) => void;
  n: number;
}) {
  const columns = slice.rows[0]?.length ?? 1;
  const setCell = (r: number, c: number, text: string) =>
    onChange({
      ...slice,
      rows: slice.rows.map((row, ri) => (ri === r ? row.map((cell, ci) => (ci === c ? text : cell)) : row)),
    });
  return (
    <div className="grid gap-2">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={slice.header}
          onChange={(e) => onChange({ ...slice, header: e.target.checked })}
        />
        1行目を見出しにする
      </label>
      <div className="overflow-x-auto">
        <table className="text-sm">
          <tbody>
            {slice.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <td key={c} className="p-0.5">
                    <input
                      aria-label={`スライス${n}の表 ${r + 1}行${c + 1}列`}
                      value={cell}
                      onChange={(e) => setCell(r, c, e.target.value)}
                      className={`min-h-9 w-32 rounded border border-line px-2 ${slice.header && r === 0 ? 'font-bold' : ''}`}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="plain"
          onClick={() => onChange({ ...slice, rows: [...slice.rows, Array(columns).fill('')] })}
        >
          行を追加
        </Button>
        <Button
          type="button"
          variant="plain"
          disabled={slice.rows.length <= 1}
          onClick={() => onChange({ ...slice, rows: slice.rows.slice(0, -1) })}
        >
          最後の行を削除
        </Button>
        <Button
          type="button"
          variant="plain"
          onClick={() => onChange({ ...slice, rows: slice.rows.map((row) => [...row, '']) })}
        >
          列を追加
        </Button>
        <Button
          type="button"
          variant="plain"
          disabled={columns <= 1}
          onClick={() => onChange({ ...slice, rows: slice.rows.map((row) => row.slice(0, -1)) })}
        >
          最後の列を削除
        </Button>
      </div>
    </div>
  );
}
