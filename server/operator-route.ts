// POST /_operator/commands: the operators' command line, run inside the running shop on its own
// database (the embedded database admits one process). Only from this machine, never through a
// proxy, and only with the local admin token of DATA_DIR/operator.json; anything else is a 404.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { z } from 'zod';
import { commandLineOperator } from '#modules/admin';
import { runAdminCommand, UsageError } from '#scripts/shop/run';
import type { CommandFiles } from '#scripts/shop/command';
import type { ShopServices } from './services';
import { apiError } from './api-error';
import { hasForwardingHeaders, isLoopback } from './security';

export const OPERATOR_COMMANDS_PATH = '/_operator/commands';
export const OPERATOR_TOKEN_HEADER = 'x-operator-token';

/** A file the command line read for the command (its text), or why it could not read it. */
const inputFileSchema = z.union([z.object({ text: z.string() }), z.object({ error: z.string().max(2000) })]);

/** What the command line sends: the command line itself, the files it names, and who runs it. */
export const operatorCommandSchema = z.object({
  argv: z.array(z.string().max(10_000)).min(1).max(200),
  inputs: z.record(z.string().min(1).max(4096), inputFileSchema).default({}),
  /** `cli:<user>@<host>` of the operator's shell, for the audit log. */
  operator: z
    .string()
    .regex(/^cli:[^\s]{1,200}$/)
    .optional(),
});
export type OperatorCommandRequest = z.input<typeof operatorCommandSchema>;

/** What the shop answers: the output lines, the exit code, and the files the command wrote. */
export interface OperatorCommandAnswer {
  exitCode: number;
  lines: string[];
  /** A refused command line (exit code 2, printed with the usage) or a failure (exit code 1). */
  error: { kind: 'usage' | 'failure'; message: string } | null;
  /** Files the command wrote, by the path as the operator typed it (the command line writes them). */
  outputs: Record<string, string>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The socket's peer (not a header): a request from this machine, or null. */
function peerAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/**
 * The route, mounted at /_operator. Without a token (PostgreSQL, where the command line connects
 * itself, or an in-process test) every request is a 404.
 * @example app.route('/_operator', createOperatorRoute(services, claim?.record.token))
 */
export function createOperatorRoute(services: ShopServices, token: string | undefined) {
  const app = new Hono();
  const expected = token ? digest(token) : null;
  const notFound = (c: Context) => apiError(c, 404, 'NOT_FOUND', 'ページが見つかりません。');
  app.post('/commands', async (c) => {
    const peer = peerAddress(c);
    const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
    const given = c.req.header(OPERATOR_TOKEN_HEADER);
    // Digests of equal length, compared in constant time: the answer tells nothing about the token.
    const tokenMatches = expected !== null && given !== undefined && timingSafeEqual(digest(given), expected);
    if (!tokenMatches || !peer || !isLoopback(peer) || !isLoopback(host) || hasForwardingHeaders(c.req.raw.headers))
      return notFound(c);
    const parsed = operatorCommandSchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return apiError(c, 400, 'INVALID_OPERATOR_COMMAND', 'コマンドの送信内容が正しくありません。');
    const { argv, inputs, operator: label } = parsed.data;
    const requestId = c.get('requestId' as never) as string | undefined;
    const lines: string[] = [];
    const outputs: Record<string, string> = {};
    const files: CommandFiles = {
      read: async (path) => {
        const input = inputs[path];
        if (!input) throw new Error('コマンドラインから送られていないファイルです');
        if ('error' in input) throw new Error(input.error);
        return input.text;
      },
      write: async (path, text) => {
        outputs[path] = text;
      },
    };
    const operator = {
      ...commandLineOperator(),
      ...(label ? { label } : {}),
      requestId: requestId ?? null,
      address: peer,
    };
    const answer = (body: OperatorCommandAnswer) => c.json(body, 200, { 'Cache-Control': 'no-store' });
    try {
      const exitCode = await runAdminCommand(services.db, argv, (line) => lines.push(line), {
        operator,
        files,
        lifetimes: { paid: services.config.PAID_COIN_EXPIRY_DAYS, free: services.config.FREE_COIN_EXPIRY_DAYS },
        beacon: services.beacon?.publishTerms ?? null,
        gateway: services.payments?.gateway,
        paymentRules: services.payments?.rules,
        addressKeyring: services.config.addressKeyring,
        copyEmbedded: services.database.copyEmbedded,
      });
      services.logger.info({ reqId: requestId, command: argv[0], exitCode }, 'operator command');
      return answer({ exitCode, lines, error: null, outputs });
    } catch (error) {
      if (error instanceof UsageError) {
        services.logger.info({ reqId: requestId, command: argv[0], exitCode: 2 }, 'operator command refused');
        return answer({ exitCode: 2, lines, error: { kind: 'usage', message: error.message }, outputs: {} });
      }
      services.logger.error({ reqId: requestId, command: argv[0], err: error }, 'operator command failed');
      const message = `サーバーでコマンドが失敗しました（request id: ${requestId ?? '-'}。詳しくはサーバーのログ）: ${(error as Error).message}`;
      return answer({ exitCode: 1, lines, error: { kind: 'failure', message }, outputs: {} });
    }
  });
  app.all('*', notFound);
  return app;
}
