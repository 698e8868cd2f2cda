// pack:create <file.json> [--publish]: a pack (draft) from a JSON definition; --publish also publishes it.
import { readFile } from 'node:fs/promises';
import { createPack, publishPack, packDefinitionSchema } from '#modules/gacha';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const packCreate: ShopCommand = {
  name: 'pack:create',
  usage: '<file.json> [--publish]',
  options: { publish: { type: 'boolean' } },
  async run({ db, out }, { values, positionals: [file] }) {
    if (!file) throw new UsageError('JSONファイルを指定してください。');
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`${file} を読めません: ${(error as Error).message}`);
    }
    const parsed = packDefinitionSchema.safeParse(json);
    if (!parsed.success)
      throw new UsageError(
        `定義に誤りがあります:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
      );
    const created = await createPack(db, json as never);
    out(JSON.stringify({ created: created.id, totalLots: created.totalLots }));
    if (values.publish) out(JSON.stringify({ published: created.id, ...(await publishPack(db, created.id)) }));
  },
};
