// The command line's way through the running shop (embedded database only): sends the command line,
// with the files it reads, to POST /_operator/commands on this machine with the local admin token
// of DATA_DIR/operator.json, then writes the files the command wrote and answers its output.
import http from 'node:http';
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { commandLineOperator } from '#modules/admin';
import { OPERATOR_FILE, type OperatorFile } from '#server/operator-file';
import {
  OPERATOR_COMMANDS_PATH,
  OPERATOR_TOKEN_HEADER,
  type OperatorCommandAnswer,
  type OperatorCommandRequest,
} from '#server/operator-route';

/** The shop could not run the command: why, in Japanese, with what to do. */
export class ShopUnreachable extends Error {}

/** One POST to the shop on an address of this machine; no time limit (a command may take minutes). */
function post(host: string, port: number, token: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host,
        port,
        method: 'POST',
        path: OPERATOR_COMMANDS_PATH,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          [OPERATOR_TOKEN_HEADER]: token,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Runs the command inside the running shop and answers what it printed, its exit code and the files
 * it wrote (already written here, relative to this command line's folder). Throws ShopUnreachable
 * with what to do when the shop does not answer or does not take the command.
 * @example const answer = await runThroughShop(held, argv, ['examples/pack.json'], dataDir)
 */
export async function runThroughShop(
  held: OperatorFile,
  argv: string[],
  inputFiles: string[],
  dataDir: string,
): Promise<OperatorCommandAnswer> {
  const file = path.join(dataDir, OPERATOR_FILE);
  if (held.port === null)
    throw new ShopUnreachable(
      `ショップのサーバー（pid ${held.pid}）が起動中です。起動が終わってから、もう一度実行してください。`,
    );
  const inputs: NonNullable<OperatorCommandRequest['inputs']> = {};
  for (const name of inputFiles) {
    try {
      inputs[name] = { text: await readFile(name, 'utf8') };
    } catch (error) {
      inputs[name] = { error: (error as Error).message };
    }
  }
  const request: OperatorCommandRequest = { argv, inputs, operator: commandLineOperator().label };
  const body = JSON.stringify(request);
  let answered: { status: number; text: string } | undefined;
  let lastError: unknown;
  // The server listens on HOST (all addresses by default); this machine's IPv4, then IPv6, address.
  for (const host of ['127.0.0.1', '::1']) {
    try {
      answered = await post(host, held.port, held.token, body);
      break;
    } catch (error) {
      lastError = error;
    }
  }
  if (!answered)
    throw new ShopUnreachable(
      `${file} によるとショップのサーバー（pid ${held.pid}, ポート ${held.port}）が動いていますが、応答がありません` +
        `（${(lastError as Error).message}）。サーバーが動いているなら、HOST がこのマシン（127.0.0.1）で受け付けているか確かめてください。` +
        `サーバーが止まっていて pid ${held.pid} が別のプロセスなら、${file} を削除してから、もう一度実行してください。`,
    );
  if (answered.status === 413)
    throw new ShopUnreachable(
      'サーバーに送るファイルが大きすぎます（合わせて 256KB まで）。ファイルを分けてください。',
    );
  if (answered.status !== 200)
    throw new ShopUnreachable(
      `ショップのサーバー（ポート ${held.port}）がコマンドを受け付けませんでした（HTTP ${answered.status}）。` +
        `${file} が今のサーバーのものでない可能性があります。サーバーを再起動してから、もう一度実行してください。`,
    );
  const answer = JSON.parse(answered.text) as OperatorCommandAnswer;
  for (const [name, text] of Object.entries(answer.outputs)) await writeFile(name, text);
  return answer;
}
