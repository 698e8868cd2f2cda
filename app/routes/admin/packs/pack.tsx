// /admin/packs/:packId: the pack editor's steps for a draft (基本情報 → 販売設定 → 賞 → 画像 →
// 確認・公開), and for a published pack its terms read-only with end early, copy and the reveal.
import { useEffect, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/pack';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { FieldError, inputClass } from '~/components/admin/fields';
import { packEditorAction, packEditorLoader } from '~/controllers/admin-packs.server';
import { PACK_STEPS, type PackEditorAnswer, type PackStep } from '~/lib/admin-packs';

export const handle = { title: (data: { pack?: { title: string } }) => `パック編集: ${data?.pack?.title ?? ''}` };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return packEditorLoader(context.get(shopRequestContext), request, params.packId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return packEditorAction(context.get(shopRequestContext), request, params.packId);
}

type Data = Route.ComponentProps['loaderData'];
const n = (v: number) => v.toLocaleString('ja-JP');
const yen = (v: number) => (v < 0 ? `−¥${n(-v)}` : `¥${n(v)}`);
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const DRAW_CHOICES = [1, 3, 5, 10, 30, 50, 100];
const TAG_LABELS: Record<string, string> = { new: 'NEW', hot: '人気', limited: '限定' };
const RANK_LABELS = ['レギュラー', 'ブロンズ', 'シルバー', 'ゴールド', 'プラチナ', 'ダイヤモンド'];
const EFFECT_LABELS: Record<string, string> = { rainbow: '虹（最上位）', gold: '金', silver: '銀', normal: '通常' };
const KIND_LABELS: Record<string, string> = { regular: '通常の賞（口）', lastone: 'ラストワン賞', kiriban: 'キリ番賞' };

function Answer({ answer }: { answer: PackEditorAnswer | undefined }) {
  if (!answer) return null;
  return answer.error ? (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
      {answer.error}
      {answer.fields?._ ? <span className="block">{answer.fields._}</span> : null}
    </p>
  ) : answer.ok ? (
    <p role="status" className="rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
      {answer.ok}
    </p>
  ) : null;
}

function Steps({ step, packId }: { step: PackStep; packId: string }) {
  return (
    <nav aria-label="編集の段階" className="mt-4">
      <ol className="flex flex-wrap gap-2 text-sm">
        {PACK_STEPS.map((s, i) => (
          <li key={s.id}>
            <Link
              to={`/admin/packs/${packId}?step=${s.id}`}
              aria-current={s.id === step ? 'step' : undefined}
              className={`block rounded-full border px-3 py-1 font-bold ${s.id === step ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
            >
              {i + 1}. {s.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Field({
  label,
  name,
  answer,
  className = '',
  ...rest
}: { label: string; name: string; answer?: PackEditorAnswer } & React.InputHTMLAttributes<HTMLInputElement>) {
  const error = answer?.fields?.[name];
  const id = `f-${name.replace(/\./g, '-')}`;
  return (
    <label className={`text-xs font-bold ${className}`} htmlFor={id}>
      {label}
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
        {...rest}
      />
      <FieldError id={`${id}-error`} message={error} />
    </label>
  );
}

function Basics({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  const { pack, genres } = data;
  const typed = answer?.typed;
  return (
    <Form method="post" className="grid gap-3 sm:grid-cols-2" noValidate>
      <input type="hidden" name="intent" value="basics" />
      <p className="text-sm sm:col-span-2">
        ID: <span className="font-mono">{pack.id}</span>（URL: /gacha/{pack.genreId}/{pack.id}。変更できません）
      </p>
      <label className="text-xs font-bold" htmlFor="f-genreId">
        ジャンル
        <select id="f-genreId" name="genreId" defaultValue={typed?.genreId ?? pack.genreId} className={inputClass}>
          {genres.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      </label>
      <Field
        label="タイトル"
        name="title"
        answer={answer}
        maxLength={100}
        defaultValue={typed?.title ?? pack.title}
        className="sm:col-span-2"
      />
      <label className="text-xs font-bold sm:col-span-2" htmlFor="f-description">
        説明（会員に表示されます）
        <textarea
          id="f-description"
          name="description"
          rows={5}
          maxLength={4000}
          defaultValue={typed?.description ?? pack.description}
          className={`${inputClass} py-2`}
        />
        <FieldError message={answer?.fields?.description} />
      </label>
      <div>
        <Button type="submit" loading={busy}>
          保存して次へ
        </Button>
      </div>
    </Form>
  );
}

function Sale({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
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

type TierRowView = Data['tiers'][number] & { isNew?: boolean };

function nextKey(rows: { key: string }[]) {
  const max = rows.reduce((m, r) => Math.max(m, Number(/^t(\d+)$/.exec(r.key)?.[1] ?? 0)), 0);
  return `t${max + 1}`;
}

function TierFields({ row, index, answer }: { row: TierRowView; index: number; answer?: PackEditorAnswer }) {
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
        {kind === 'kiriban' ? (
          <Field
            label="キリ番（何口目か。例: 100, 500）"
            name={name('kiribanAt')}
            answer={answer}
            defaultValue={typed('kiribanAt', row.kiribanAt.join(', '))}
          />
        ) : null}
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

function Tiers({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
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
      cardImagePath: '',
      quantity: 1,
      conversionValue: 0,
      cardCostYen: null,
      kiribanAt: [],
      isNew: true,
    },
  ];
  return (
    <Form method="post" className="grid gap-3" noValidate>
      <input type="hidden" name="intent" value="tiers" />
      <input type="hidden" name="tierCount" value={rows.length} />
      <p className="text-sm text-muted">
        上から順に良い賞です（1番上が最上位）。通常の賞の数量の合計が総口数になります。ラストワン賞は最後の1口を引いた人に、キリ番賞は指定した口数目を引いた人に、口とは別に贈られます。
        {data.pack.totalLots ? ` 現在の総口数: ${n(data.pack.totalLots)}口` : ''}
      </p>
      {rows.map((row, i) => (
        <TierFields key={row.key} row={row} index={i} answer={answer} />
      ))}
      <div>
        <Button type="submit" loading={busy}>
          賞を保存する
        </Button>
      </div>
    </Form>
  );
}

function ImageUpload({
  intent,
  label,
  current,
  tierKey,
  busy,
  maxMb,
}: {
  intent: 'pack-image' | 'tier-image';
  label: string;
  current: string;
  tierKey?: string;
  busy: boolean;
  maxMb: number;
}) {
  const id = `img-${tierKey ?? 'pack'}`;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-3"
    >
      <input type="hidden" name="intent" value={intent} />
      {tierKey ? <input type="hidden" name="tierKey" value={tierKey} /> : null}
      {current ? (
        <img
          src={current}
          alt={`${label}（登録済み）`}
          width={96}
          height={96}
          className="size-24 rounded object-contain"
        />
      ) : (
        <span className="flex size-24 items-center justify-center rounded bg-slate-100 text-xs text-muted">未登録</span>
      )}
      <label className="text-xs font-bold" htmlFor={id}>
        {label}（JPEG・PNG・WebP、{maxMb}MBまで。自社で撮影・制作したもの）
        <input
          id={id}
          type="file"
          name="image"
          accept="image/jpeg,image/png,image/webp"
          required
          className="mt-1 block text-sm"
        />
      </label>
      <Button type="submit" variant="secondary" loading={busy}>
        アップロード
      </Button>
    </Form>
  );
}

function Images({ data, busy }: { data: Data; busy: boolean }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted">
        画像は自動で縮小され、位置情報などのメタデータは消されます。カードの写真は実物を撮影したものにしてください。
      </p>
      <ImageUpload
        intent="pack-image"
        label="パック画像"
        current={data.pack.imagePath}
        busy={busy}
        maxMb={data.imageMaxMb}
      />
      {data.tiers.length === 0 ? <p className="text-sm">先に「賞」を入力してください。</p> : null}
      {data.tiers.map((t) => (
        <ImageUpload
          key={t.key}
          intent="tier-image"
          tierKey={t.key}
          label={`${t.label}「${t.cardName}」の写真`}
          current={t.cardImagePath}
          busy={busy}
          maxMb={data.imageMaxMb}
        />
      ))}
    </div>
  );
}

function Numbers({ data }: { data: Data }) {
  const { numbers } = data;
  return (
    <section aria-labelledby="numbers" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="numbers" className="text-lg font-black">
        数字
      </h2>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-muted">総口数</dt>
          <dd className="text-lg font-black">{n(numbers.totalLots)}口</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">売上（全口）</dt>
          <dd className="text-lg font-black">{n(numbers.salesCoins)}コイン</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">賞の交換価値の合計</dt>
          <dd className="text-lg font-black">{n(numbers.prizeValueCoins)}コイン</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">還元率</dt>
          <dd className="text-lg font-black">{pct(numbers.returnRate)}</dd>
        </div>
      </dl>
      {numbers.perDraw ? (
        <p className="mt-2 text-sm">
          1口の価値: 最低 {n(numbers.perDraw.min)}・中央値 {n(numbers.perDraw.median)}・平均{' '}
          {n(Math.round(numbers.perDraw.mean))}・最高 {n(numbers.perDraw.max)}コイン
        </p>
      ) : null}
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="text-left text-xs font-bold">回数ごとに会員が受け取る価値（交換コイン）</caption>
          <thead className="bg-slate-50 text-left text-xs">
            <tr>
              <th className="p-2">回数</th>
              <th className="p-2">価格</th>
              <th className="p-2">最低</th>
              <th className="p-2">平均</th>
              <th className="p-2">最高</th>
            </tr>
          </thead>
          <tbody>
            {numbers.options.map((o) => (
              <tr key={o.count} className="border-t border-line">
                <td className="p-2">{o.count === 1 ? '1回' : `${o.count}連`}</td>
                <td className="p-2">{n(o.price)}</td>
                <td className="p-2">{n(o.min)}</td>
                <td className="p-2">{n(o.mean)}</td>
                <td className="p-2">{n(o.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="text-left text-xs font-bold">賞ごとの確率</caption>
          <thead className="bg-slate-50 text-left text-xs">
            <tr>
              <th className="p-2">賞</th>
              <th className="p-2">数量</th>
              <th className="p-2">1口で当たる確率</th>
              <th className="p-2">交換コイン</th>
            </tr>
          </thead>
          <tbody>
            {numbers.tiers.map((t) => (
              <tr key={t.key} className="border-t border-line">
                <td className="p-2">{t.label}</td>
                <td className="p-2">{n(t.quantity)}</td>
                <td className="p-2">{t.extra ? '口とは別の賞' : pct(t.chance)}</td>
                <td className="p-2">{n(t.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className="mt-4 font-black">利益の見込み（全口が売れ、すべての賞を発送した場合）</h3>
      <dl className="mt-1 grid gap-2 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-xs text-muted">カードの仕入れ</dt>
          <dd className="font-bold">{yen(numbers.margin.cardCostYen)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">決済手数料</dt>
          <dd className="font-bold">{yen(numbers.margin.feesYen)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">送料</dt>
          <dd className="font-bold">{yen(numbers.margin.shippingYen)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">利益</dt>
          <dd className={`font-black ${numbers.margin.marginYen < 0 ? 'text-danger' : ''}`}>
            {yen(numbers.margin.marginYen)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">利益率</dt>
          <dd className="font-black">{pct(numbers.margin.marginRate)}</dd>
        </div>
      </dl>
      {numbers.margin.missingCost.length ? (
        <p className="mt-2 text-xs font-bold text-amber-900">
          仕入れ値が未入力の賞（0円として計算）: {numbers.margin.missingCost.join('、')}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The publish confirmation's figures (issue 28 item 4): the 還元率, stated when above 100 %, and the
 * projected margin; a negative one needs the box ticked (the server checks it and records it).
 */
function PublishFigures({ numbers }: { numbers: Data['numbers'] }) {
  const over = numbers.returnRate !== null && numbers.returnRate > 1;
  const negative = numbers.margin.marginYen < 0;
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted">還元率</dt>
        <dd className={`font-bold ${over ? 'text-danger' : ''}`} data-testid="publish-return-rate">
          {pct(numbers.returnRate)}
        </dd>
        <dt className="text-muted">予想利益</dt>
        <dd className={`font-bold ${negative ? 'text-danger' : ''}`} data-testid="publish-margin">
          {yen(numbers.margin.marginYen)}（{pct(numbers.margin.marginRate)}）
        </dd>
      </dl>
      {over ? (
        <p className="rounded-lg bg-amber-50 p-3 text-amber-900">
          還元率が100%を超えています（{pct(numbers.returnRate)}
          ）。賞の価値の合計が売上より多いパックです。意図したとおりか確かめてください。
        </p>
      ) : null}
      {negative ? (
        <label className="flex items-start gap-2 rounded-lg bg-red-50 p-3 font-bold text-danger">
          <input type="checkbox" name="acknowledgeNegativeMargin" required className="mt-1 size-5 shrink-0" />
          <span>
            予想利益がマイナス（{yen(numbers.margin.marginYen)}）であることを確認しました。このまま公開します。
          </span>
        </label>
      ) : null}
    </div>
  );
}

function Review({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  // A refusal is shown above the page: the sheet closes so it can be read.
  useEffect(() => {
    if (answer?.error) setAsking(false);
  }, [answer]);
  const { pack, checks } = data;
  const allOk = Boolean(checks?.every((c) => c.ok));
  const scheduled = pack.saleStartsAtLocal && new Date(`${pack.saleStartsAtLocal}:00+09:00`) > new Date();
  return (
    <div className="grid gap-4">
      <Numbers data={data} />
      <section aria-labelledby="checks" className="rounded-2xl border border-line bg-white p-4">
        <h2 id="checks" className="text-lg font-black">
          公開前チェック
        </h2>
        <ul className="mt-2 grid gap-2 text-sm">
          {checks?.map((c) => (
            <li key={c.key}>
              <span className={`font-bold ${c.ok ? 'text-green-800' : 'text-danger'}`}>
                {c.ok ? '✓ OK' : '✕ 要対応'}: {c.label}
              </span>
              {c.problems.length ? (
                <ul className="ml-5 list-disc text-danger">
                  {c.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap gap-3">
          <a
            href={`/gacha/${pack.genreId}/${pack.id}?preview=1`}
            target="_blank"
            rel="noreferrer"
            className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-bold underline"
          >
            会員の画面でプレビュー（新しいタブ）
          </a>
          <Button onClick={() => setAsking(true)} disabled={!allOk}>
            {scheduled ? '公開を予約する' : '公開する'}
          </Button>
        </div>
        {!allOk ? <p className="mt-2 text-xs">すべてのチェックがOKになると公開できます。</p> : null}
      </section>
      {asking ? (
        <Sheet
          title={scheduled ? '公開を予約しますか？' : 'このパックを公開しますか？'}
          onClose={() => setAsking(false)}
          busy={busy}
        >
          <Form method="post" className="grid gap-3 text-sm">
            <input type="hidden" name="intent" value="publish" />
            <p>
              {n(data.numbers.totalLots)}口の並びを秘密のシードで確定し、コミットメントを公開します。
              <strong>公開後は賞・口数・価格・タイトルを変更できません。</strong>
              在庫のカードはこのパックに確保されます。
            </p>
            <PublishFigures numbers={data.numbers} />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" loading={busy}>
                {scheduled ? '予約する' : '公開する'}
              </Button>
              <Button variant="secondary" onClick={() => setAsking(false)} disabled={busy}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </div>
  );
}

function Published({ data, busy }: { data: Data; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  const { pack } = data;
  const live = pack.status === 'on_sale' || pack.status === 'scheduled';
  return (
    <div className="grid gap-4">
      <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-bold text-amber-900">
        公開済みのパックです。口の中身（賞・口数・価格・タイトル）はコミットメントで固定されていて、変更できません。変えたいときは下の「コピーして新しい下書き」を使ってください。
      </p>
      <dl className="grid gap-2 rounded-2xl border border-line bg-white p-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-muted">状態</dt>
          <dd className="font-bold">{pack.statusLabel}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">残り／総口数</dt>
          <dd className="font-bold">
            {n(pack.remainingLots)}／{n(pack.totalLots)}口
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">コミットメント</dt>
          <dd className="font-mono text-xs break-all">{pack.commitment}</dd>
        </div>
      </dl>
      <Numbers data={data} />
      <div className="flex flex-wrap gap-3">
        <a
          href={`/gacha/${pack.genreId}/${pack.id}`}
          className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-bold underline"
        >
          ショップで見る
        </a>
        {pack.revealed ? (
          <a
            href={`/api/v1/gachas/${pack.id}/reveal`}
            className="inline-flex min-h-11 items-center rounded-full border border-line px-4 text-sm font-bold underline"
          >
            公開された抽選記録（シード・ログ）
          </a>
        ) : null}
        {live ? (
          <Button variant="danger" onClick={() => setAsking(true)}>
            販売を終了する
          </Button>
        ) : null}
      </div>
      {asking ? (
        <Sheet title="販売を終了しますか？" onClose={() => setAsking(false)} busy={busy}>
          <Form method="post" className="grid gap-3 text-sm">
            <input type="hidden" name="intent" value="end" />
            <p>
              これ以降は誰も引けなくなり、シードと抽選ログが公開されます。残りの{n(pack.remainingLots)}
              口のカードは在庫に戻ります。元に戻せません。
            </p>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="danger" loading={busy}>
                終了する
              </Button>
              <Button variant="secondary" onClick={() => setAsking(false)} disabled={busy}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </div>
  );
}

function CopyForm({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
  return (
    <section aria-labelledby="copy" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="copy" className="text-lg font-black">
        コピーして新しい下書き
      </h2>
      <Form method="post" className="mt-2 grid gap-3 sm:grid-cols-3" noValidate>
        <input type="hidden" name="intent" value="copy" />
        <Field
          label="新しいID"
          name="copyId"
          answer={{ fields: { copyId: answer?.fields?.['copy.id'] ?? '' } }}
          defaultValue={answer?.typed?.copyId ?? `${data.pack.id}-2`.slice(0, 60)}
        />
        <Field
          label="新しいタイトル"
          name="copyTitle"
          answer={{ fields: { copyTitle: answer?.fields?.['copy.title'] ?? '' } }}
          defaultValue={answer?.typed?.copyTitle ?? `${data.pack.title}（コピー）`.slice(0, 100)}
          className="sm:col-span-2"
        />
        <div>
          <Button type="submit" variant="secondary" loading={busy}>
            コピーする
          </Button>
        </div>
      </Form>
    </section>
  );
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
      <Answer answer={answer} />
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
