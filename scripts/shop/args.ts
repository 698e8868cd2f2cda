// Reading the operators' command line: options per command, decimal integers in range, and refusals
// (UsageError) that the entry prints with the usage instead of a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';

/** A refusal of the command line itself: printed in Japanese with the usage, exit code 2, nothing written. */
export class UsageError extends Error {}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | undefined>;

/**
 * The options and positionals of one command, or a UsageError in Japanese (never Node's English error).
 * @example const { values, positionals } = parseCommandLine(['pack:end', 'x'], { out: { type: 'string' } })
 */
export function parseCommandLine(argv: string[], options: OptionSpec): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as OptionValues, positionals };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const option = /'(-[^ ']*)/.exec((error as Error).message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`このコマンドにないオプションです: ${option}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      // `--amount -5` lands here: Node will not take a value that starts with a dash.
      throw new UsageError(`${option} の値が正しくありません（値がないか、- で始まっています）。`);
    }
    if (code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`引数が正しくありません: ${argv.join(' ')}`);
    throw error;
  }
}

/**
 * A decimal integer in range, written in digits only: no sign, no hex (`0x10`), no exponent (`1e3`),
 * no spaces, no trailing letters (`12abc`), and not empty.
 */
export const decimalInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,16}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const formatted = (n: number) => n.toLocaleString('en-US');

/**
 * The option's decimal integer in [min, max], the fallback when it is absent, or a UsageError that names it.
 * @example const amount = integerOption(values, 'amount', { min: 1, max: 10_000_000 })
 */
export function integerOption(
  values: OptionValues,
  name: string,
  range: { min: number; max: number; fallback?: number },
): number {
  const value = values[name];
  if (value === undefined && range.fallback !== undefined) return range.fallback;
  const parsed = decimalInteger(range.min, range.max).safeParse(value);
  if (!parsed.success) {
    const given = typeof value === 'string' ? `（指定: "${value}"）` : '';
    throw new UsageError(
      `--${name} は ${formatted(range.min)}〜${formatted(range.max)} の整数（半角数字のみ）で指定してください${given}。`,
    );
  }
  return parsed.data;
}

/** A string option that must be there. @example const reason = requiredOption(values, 'reason', '--reason（付与の理由）を指定してください。') */
export function requiredOption(values: OptionValues, name: string, message: string): string {
  const value = values[name];
  if (typeof value !== 'string' || !value.trim()) throw new UsageError(message);
  return value;
}
