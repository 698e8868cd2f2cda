// pack:create <file.json> [--publish]: a pack (draft) from a JSON definition; --publish also publishes it.
import { packDefinitionSchema } from '#modules/gacha';
import { createPackAsOperator } from '#modules/admin';
import { UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

export const packCreate: ShopCommand = {
  name: 'pack:create',
  usage: '<file.json> [--publish]',
  options: { publish: { type: 'boolean' } },
  inputFiles: ({ positionals: [file] }) => (file ? [file] : []),
  async run({ db, out, operator, files, beacon }, { values, positionals: [file] }) {
    if (!file) throw new UsageError('JSONファイルを指定してください。');
    let json: unknown;
    try {
      json = JSON.parse(await files.read(file));
    } catch (error) {
      throw new UsageError(`${file} を読めません: ${(error as Error).message}`);
    }
    const parsed = packDefinitionSchema.safeParse(json);
    if (!parsed.success)
      throw new UsageError(
        `定義に誤りがあります:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
      );
    // Created and published in one transaction, each audited (pack.create, pack.publish).
    const created = settled(
      await createPackAsOperator(db, operator, json as never, { publish: Boolean(values.publish), beacon }),
    );
    out(JSON.stringify({ created: created.id, totalLots: created.totalLots }));
    if (created.published) out(JSON.stringify({ published: created.id, ...created.published }));
  },
};
