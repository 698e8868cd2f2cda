// The pack editor's third step, 賞: the tiers (regular lots, the last-one prize, kiriban prizes), rows
// added and removed in the page; a graded card's certificate number beside its grade.
import { useState } from 'react';
import { Form } from 'react-router';
import type { PackEditorAnswer } from '~/lib/admin-packs';
import { Button } from '~/components/Button';
import { FieldError, inputClass } from '~/components/admin/fields';
import { type Data, Field, n } from './pack-parts';

const EFFECT_LABELS: Record<string, string> = { rainbow: '虹（最上位）', gold: '金', silver: '銀', normal: '通常' };
const KIND_LABELS: Record<string, string> = {
  regular: '通常の賞（口）',
  lastone: 'ラストワン賞',
  kiriban: 'キリ番賞',
  personal: '個人キリ番賞',
  pitari: 'ピタリ賞',
  ceiling: '天井賞',
};

type TierRowView = Data['tiers'][number] & { isNew?: boolean };

function nextKey(rows: { key: string }[]) {
  const max = rows.reduce((m, r) => Math.max(m, Number(/^t(\d+)$/.exec(r.key)?.[1] ?? 0)), 0);
  return `t${max + 1}`;
}

/** A graded card's company, grade and certificate number (the proof a valuable hit exists, issue 33 item 8). */
function GradeFields({
  row,
  index,
  answer,
  certifiedMin,
}: {
  row: TierRowView;
  index: number;
  answer?: PackEditorAnswer;
  certifiedMin: number;
}) {
  const name = (f: string) => `tiers.${index}.${f}`;
  const typed = (f: string, fallback: string | number | null) => answer?.typed?.[name(f)] ?? fallback ?? '';
  return (
    <>
      <label className="text-xs font-bold" htmlFor={`f-${index}-grade`}>
        鑑定会社
        <select
          id={`f-${index}-grade`}
          name={name('gradeCompany')}
          defaultValue={String(typed('gradeCompany', row.gradeCompany))}
          className={inputClass}
        >
          <option value="">鑑定なし</option>
          <option value="PSA">PSA</option>
          <option value="BGS">BGS</option>
          <option value="ARS">ARS</option>
        </select>
        <FieldError message={answer?.fields?.[name('gradeCompany')]} />
      </label>
      <Field
        label="鑑定グレード（例: 10）"
        name={name('gradeValue')}
        answer={answer}
        defaultValue={typed('gradeValue', row.gradeValue)}
      />
      <Field
        label={`鑑定番号（交換${n(certifiedMin)}以上は必須）`}
        name={name('certificateNumber')}
        autoComplete="off"
        spellCheck={false}
        answer={answer}
        defaultValue={typed('certificateNumber', row.certificateNumber)}
      />
    </>
  );
}

/** The fields of an extra prize's kind: キリ番, 個人キリ番 (decision 088), a ピタリ賞's tier or a 天井 (decision 089). */
function ExtraPrizeFields({
  kind,
  row,
  index,
  answer,
  targets,
}: {
  kind: string;
  row: TierRowView;
  index: number;
  answer?: PackEditorAnswer;
  targets: { key: string; label: string }[];
}) {
  const name = (f: string) => `tiers.${index}.${f}`;
  const typed = (f: string, fallback: string | number | null) => answer?.typed?.[name(f)] ?? fallback ?? '';
  return (
    <>
      {kind === 'kiriban' ? (
        <Field
          label="キリ番（何口目か。例: 100, 500。「ゾロ目」で11, 22…を自動入力）"
          name={name('kiribanAt')}
          answer={answer}
          defaultValue={typed('kiribanAt', row.kiribanAt.join(', '))}
        />
      ) : null}
      {kind === 'personal' ? (
        <Field
          label="個人キリ番（会員ごとの何口目か。例: 10, 50）"
          name={name('personalKiribanAt')}
          answer={answer}
          defaultValue={typed('personalKiribanAt', row.personalKiribanAt.join(', '))}
        />
      ) : null}
      {kind === 'pitari' ? (
        <label className="text-xs font-bold" htmlFor={`f-${index}-pitariOf`}>
          ピタリ賞の対象（この賞の最後の1口を引いた方に）
          <select
            id={`f-${index}-pitariOf`}
            name={name('pitariOf')}
            defaultValue={String(typed('pitariOf', row.pitariOf))}
            className={inputClass}
          >
            <option value="">選んでください</option>
            {targets.map((target) => (
              <option key={target.key} value={target.key}>
                {target.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {kind === 'ceiling' ? (
        <>
          <Field
            label="天井の口数（確定する賞が出ないまま何口で確定か。例: 100）"
            name={name('ceilingAfter')}
            inputMode="numeric"
            answer={answer}
            defaultValue={typed('ceilingAfter', row.ceilingAfter)}
          />
          <label className="text-xs font-bold" htmlFor={`f-${index}-ceilingFrom`}>
            確定する賞（この賞以上が出ないまま天井の口数に達した方に）
            <select
              id={`f-${index}-ceilingFrom`}
              name={name('ceilingFrom')}
              defaultValue={String(typed('ceilingFrom', row.ceilingFrom))}
              className={inputClass}
            >
              <option value="">選んでください</option>
              {targets.map((target) => (
                <option key={target.key} value={target.key}>
                  {target.label}以上
                </option>
              ))}
            </select>
            <FieldError message={answer?.fields?.[name('ceilingFrom')] ?? answer?.fields?.[name('ceilingOf')]} />
          </label>
        </>
      ) : null}
      {kind === 'personal' || kind === 'ceiling' ? <OwnStockNote row={row} kind={kind} /> : null}
    </>
  );
}

/**
 * A 個人キリ番賞's or 天井賞's own stock (decisions 088, 089): not typed but counted from the pack's lots when the
 * row is saved (the most it can give), and committed at publish; the operator stocks that many cards.
 */
function OwnStockNote({ row, kind }: { row: TierRowView; kind: string }) {
  const saved = !row.isNew && row.kind === kind;
  return (
    <p className="text-xs text-muted sm:col-span-4" data-testid="own-stock-note">
      {saved ? (
        <>
          専用の在庫: <b className="text-ink">{n(row.quantity)}枚</b>
          （総口数から計算した最大数。ほかの賞の口は減りません。公開前にこの枚数を入庫してください）
        </>
      ) : (
        '専用の在庫の枚数（最大数）は、保存すると総口数から計算して表示します。ほかの賞の口は減りません。'
      )}
    </p>
  );
}

function TierFields({
  row,
  index,
  answer,
  certifiedMin,
  targets,
}: {
  row: TierRowView;
  index: number;
  answer?: PackEditorAnswer;
  certifiedMin: number;
  /** The saved regular tiers, which a ピタリ賞 may reward. */
  targets: { key: string; label: string }[];
}) {
  const name = (f: string) => `tiers.${index}.${f}`;
  const typed = (f: string, fallback: string | number | null) => answer?.typed?.[name(f)] ?? fallback ?? '';
  const [kind, setKind] = useState(String(typed('kind', row.kind)));
  return (
    <fieldset className="rounded-2xl border border-line bg-white p-3">
      <legend className="px-1 text-sm font-black">{row.isNew ? '賞を追加する' : `${index + 1}. ${row.label}`}</legend>
      <input type="hidden" name={name('key')} value={row.key} />
      <input type="hidden" name={name('cardImagePath')} value={row.cardImagePath} />
      {row.isNew ? <input type="hidden" name={name('isNew')} value="1" /> : null}
      <div className="grid gap-2 sm:grid-cols-4">
        <label className="text-xs font-bold" htmlFor={`f-${index}-kind`}>
          種類
          <select
            id={`f-${index}-kind`}
            name={name('kind')}
            value={kind}
            onChange={(e) => setKind(e.target.value)}
            className={inputClass}
          >
            {Object.entries(KIND_LABELS).map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <Field
          label="賞の名前（S賞など）"
          name={name('label')}
          answer={answer}
          defaultValue={typed('label', row.label)}
        />
        <Field
          label="順番（1が最上位）"
          name={name('order')}
          inputMode="numeric"
          answer={answer}
          defaultValue={typed('order', index + 1)}
        />
        <label className="text-xs font-bold" htmlFor={`f-${index}-effect`}>
          演出
          <select
            id={`f-${index}-effect`}
            name={name('effect')}
            defaultValue={String(typed('effect', row.effect === 'lastone' ? 'gold' : row.effect))}
            className={inputClass}
          >
            {Object.entries(EFFECT_LABELS).map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <Field
          label="カード名"
          name={name('cardName')}
          answer={answer}
          defaultValue={typed('cardName', row.cardName)}
        />
        <Field
          label="セット（弾）"
          name={name('cardSet')}
          answer={answer}
          defaultValue={typed('cardSet', row.cardSet)}
        />
        <Field
          label="カード番号"
          name={name('cardNumber')}
          answer={answer}
          defaultValue={typed('cardNumber', row.cardNumber)}
        />
        <Field label="レアリティ" name={name('rarity')} answer={answer} defaultValue={typed('rarity', row.rarity)} />
        <GradeFields row={row} index={index} answer={answer} certifiedMin={certifiedMin} />
        <Field
          label="状態（美品など）"
          name={name('cardCondition')}
          answer={answer}
          defaultValue={typed('cardCondition', row.cardCondition)}
        />
        {kind === 'regular' ? (
          <Field
            label="数量（口数）"
            name={name('quantity')}
            inputMode="numeric"
            answer={answer}
            defaultValue={typed('quantity', row.isNew ? '' : row.quantity)}
          />
        ) : null}
        <ExtraPrizeFields kind={kind} row={row} index={index} answer={answer} targets={targets} />
        <Field
          label="交換コイン（1枚）"
          name={name('conversionValue')}
          inputMode="numeric"
          answer={answer}
          defaultValue={typed('conversionValue', row.isNew ? '' : row.conversionValue)}
        />
        <Field
          label="仕入れ値（円・1枚、非公開）"
          name={name('cardCostYen')}
          inputMode="numeric"
          answer={answer}
          defaultValue={typed('cardCostYen', row.cardCostYen)}
        />
      </div>
      {row.isNew ? null : (
        <label className="mt-2 flex min-h-11 items-center gap-2 text-sm">
          <input type="checkbox" name={name('remove')} value="1" className="size-4" />
          この賞を削除する
        </label>
      )}
    </fieldset>
  );
}

export function Tiers({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  const rows: TierRowView[] = [
    ...data.tiers,
    {
      key: nextKey(data.tiers),
      kind: 'regular',
      label: '',
      effect: 'normal',
      cardName: '',
      cardSet: '',
      cardNumber: '',
      rarity: '',
      gradeCompany: '',
      gradeValue: '',
      cardCondition: '',
      certificateNumber: '',
      cardImagePath: '',
      quantity: 1,
      conversionValue: 0,
      cardCostYen: null,
      kiribanAt: [],
      personalKiribanAt: [],
      pitariOf: '',
      ceilingAfter: null,
      ceilingFrom: '',
      isNew: true,
    },
  ];
  return (
    <Form method="post" className="grid gap-3" noValidate>
      <input type="hidden" name="intent" value="tiers" />
      <input type="hidden" name="tierCount" value={rows.length} />
      <p className="text-sm text-muted">
        上から順に良い賞です（1番上が最上位）。通常の賞の数量の合計が総口数になります。ラストワン賞は最後の1口を引いた人に、キリ番賞は指定した口数目を引いた人に、個人キリ番賞は自分の何口目かに達した人に（1人1回ずつ）、ピタリ賞は選んだ賞の最後の1口を引いた人に、天井賞は確定する賞が出ないまま指定の口数を引いた人に（その口数ごとに）、口とは別に贈られます（キリ番に「ゾロ目」と入力すると、総口数未満のゾロ目
        11, 22, …, 111 … がすべて入ります: ゾロ目賞）。
        {data.pack.totalLots ? ` 現在の総口数: ${n(data.pack.totalLots)}口` : ''}
      </p>
      <p className="text-sm text-muted">
        交換{n(data.certifiedPrizeMinCoins)}
        コイン以上の鑑定品（鑑定会社を選んだ賞）は、鑑定書の鑑定番号と、次の「画像」で登録する写真（原本のまま保存し、SHA-256を記録します）がないと公開できません。ショップのページに公開時から表示されます。鑑定番号は1枚ごとに違うため、同じカードが複数あるときは1枚ずつ別の賞にしてください。
      </p>
      {rows.map((row, i) => (
        <TierFields
          key={row.key}
          row={row}
          index={i}
          answer={answer}
          certifiedMin={data.certifiedPrizeMinCoins}
          targets={data.tiers.filter((t) => t.kind === 'regular').map((t) => ({ key: t.key, label: t.label }))}
        />
      ))}
      <div>
        <Button type="submit" loading={busy}>
          賞を保存する
        </Button>
      </div>
    </Form>
  );
}
