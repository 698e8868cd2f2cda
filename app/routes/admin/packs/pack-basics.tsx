// The pack editor's first step, 基本情報: the genre, the title and the description.
import { Form } from 'react-router';
import type { PackEditorAnswer } from '~/lib/admin-packs';
import { Button } from '~/components/Button';
import { FieldError, inputClass } from '~/components/admin/fields';
import { type Data, Field } from './pack-parts';

export function Basics({ data, answer, busy }: { data: Data; answer?: PackEditorAnswer; busy: boolean }) {
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
