// The pack editor's second step, 販売設定: price, draw choices, per-member limit, tags, the lowest rank, display
// order, the sale window and the waiting room (decision 087).
import { Form } from 'react-router';
import type { PackEditorAnswer } from '~/lib/admin-packs';
import { Button } from '~/components/Button';
import { FieldError, inputClass } from '~/components/admin/fields';
import { type Data, Field } from './pack-parts';

const DRAW_CHOICES = [1, 3, 5, 10, 30, 50, 100];
const TAG_LABELS: Record<string, string> = { new: 'NEW', hot: '人気', limited: '限定' };
const RANK_LABELS = ['レギュラー', 'ブロンズ', 'シルバー', 'ゴールド', 'プラチナ', 'ダイヤモンド'];

export function Sale({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  const { pack } = data;
  const typed = answer?.typed;
  return (
    <Form method="post" className="grid gap-3 sm:grid-cols-3" noValidate>
      <input type="hidden" name="intent" value="sale" />
      <Field
        label="1回の価格（コイン）"
        name="pricePerDraw"
        inputMode="numeric"
        answer={answer}
        defaultValue={typed?.pricePerDraw ?? pack.pricePerDraw}
      />
      <Field
        label="1人あたりの上限口数（空欄: なし）"
        name="perMemberLimit"
        inputMode="numeric"
        answer={answer}
        defaultValue={typed?.perMemberLimit ?? pack.perMemberLimit ?? ''}
      />
      <label className="text-xs font-bold" htmlFor="f-minRank">
        最低ランク
        <select id="f-minRank" name="minRank" defaultValue={pack.minRank ?? ''} className={inputClass}>
          <option value="">制限なし</option>
          {RANK_LABELS.map((label, i) => (
            <option key={label} value={i}>
              {label}以上
            </option>
          ))}
        </select>
        <FieldError message={answer?.fields?.minRank} />
      </label>
      <WaitingRoomFields data={data} answer={answer} />
      <fieldset className="sm:col-span-3" data-testid="draw-mode">
        <legend className="text-xs font-bold">抽選方式</legend>
        <div className="mt-1 grid gap-2 text-sm sm:grid-cols-2">
          <label className="flex min-h-11 items-start gap-2 rounded-lg border border-slate-200 p-2">
            <input
              type="radio"
              name="drawMode"
              value="sequence"
              defaultChecked={pack.drawMode !== 'beacon'}
              className="mt-1 size-4"
            />
            <span>
              <span className="font-bold">通常</span>
              <span className="block text-xs text-slate-600">
                公開時に口の順番を秘密のシードで確定し、完売・終了後にシードを公開して検証できます。
              </span>
            </span>
          </label>
          <label className="flex min-h-11 items-start gap-2 rounded-lg border border-slate-200 p-2">
            <input
              type="radio"
              name="drawMode"
              value="beacon"
              defaultChecked={pack.drawMode === 'beacon'}
              className="mt-1 size-4"
            />
            <span>
              <span className="font-bold">ビーコン抽選</span>
              <span className="block text-xs text-slate-600">
                引いた後に公開される乱数ビーコン（drand）で当たりが決まります。店舗も含めて誰も事前に知ることができず、会員のスマホが結果を検証します（結果まで数秒の「抽選中」があります）。
              </span>
              {!data.beaconAvailable && (
                <span className="mt-1 block text-xs font-bold text-red-700">
                  この店舗には受付証の署名鍵（BEACON_RECEIPT_KEY）が設定されていないため、公開できません。
                </span>
              )}
            </span>
          </label>
        </div>
        <FieldError message={answer?.fields?.drawMode} />
      </fieldset>
      <fieldset className="sm:col-span-3">
        <legend className="text-xs font-bold">引ける回数</legend>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          {DRAW_CHOICES.map((c) => (
            <label key={c} className="flex min-h-11 items-center gap-2">
              <input
                type="checkbox"
                name="drawOptions"
                value={c}
                defaultChecked={pack.drawOptions.includes(c)}
                className="size-4"
              />
              {c === 1 ? '1回' : `${c}連`}
            </label>
          ))}
        </div>
        <FieldError message={answer?.fields?.drawOptions ?? answer?.fields?.['drawOptions.0']} />
      </fieldset>
      <fieldset className="sm:col-span-2">
        <legend className="text-xs font-bold">タグ</legend>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          {Object.entries(TAG_LABELS).map(([id, label]) => (
            <label key={id} className="flex min-h-11 items-center gap-2">
              <input
                type="checkbox"
                name="tags"
                value={id}
                defaultChecked={pack.tags.includes(id)}
                className="size-4"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        label="表示順（小さいほど上）"
        name="sortOrder"
        inputMode="numeric"
        answer={answer}
        defaultValue={typed?.sortOrder ?? pack.sortOrder}
      />
      <Field
        label="販売開始（日本時間・空欄: 公開した時）"
        name="saleStartsAt"
        type="datetime-local"
        answer={answer}
        defaultValue={typed?.saleStartsAt ?? pack.saleStartsAtLocal}
      />
      <Field
        label="販売終了（日本時間・空欄: 完売まで）"
        name="saleEndsAt"
        type="datetime-local"
        answer={answer}
        defaultValue={typed?.saleEndsAt ?? pack.saleEndsAtLocal}
      />
      <p className="text-xs text-muted sm:col-span-3">
        販売開始を未来にして公開すると「公開予約」になり、その時刻に自動で販売中になります。販売終了の時刻には自動で終了します。
      </p>
      <div>
        <Button type="submit" loading={busy}>
          保存して次へ
        </Button>
      </div>
    </Form>
  );
}

/** The waiting room (decision 087): on or off, each member's window and how many windows are open at once. */
function WaitingRoomFields({ data, answer }: { data: Data; answer?: PackEditorAnswer }) {
  const { pack } = data;
  const typed = answer?.typed;
  return (
    <fieldset className="sm:col-span-3" data-testid="waiting-room">
      <legend className="text-xs font-bold">待機列（人気ガチャ向け）</legend>
      <label className="mt-1 flex min-h-11 items-start gap-2 rounded-lg border border-slate-200 p-2 text-sm">
        <input
          type="checkbox"
          name="waitingRoom"
          value="on"
          defaultChecked={typed ? typed.waitingRoom === 'on' : pack.waitingRoom}
          className="mt-1 size-4"
        />
        <span>
          <span className="font-bold">待機列を使う</span>
          <span className="block text-xs text-slate-600">
            販売開始前に並んだ会員の順番を開始時刻にサーバーが無作為に抽選し、順番に購入時間を渡します（1人あたりの上限口数が必要です）。
          </span>
        </span>
      </label>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        <Field
          label="1人あたりの購入時間（秒、30〜3600）"
          name="waitingRoomWindowSeconds"
          inputMode="numeric"
          answer={answer}
          defaultValue={typed?.waitingRoomWindowSeconds ?? pack.waitingRoomWindowSeconds}
        />
        <Field
          label="同時に購入できる人数（1〜10000）"
          name="waitingRoomBatch"
          inputMode="numeric"
          answer={answer}
          defaultValue={typed?.waitingRoomBatch ?? pack.waitingRoomBatch}
        />
      </div>
    </fieldset>
  );
}
