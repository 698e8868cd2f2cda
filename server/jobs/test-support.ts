// Helpers for the job tests: a pino logger whose lines can be read back.
import { pino } from 'pino';
import type { Logger } from '../logger';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** @example const { logger, lines } = capturingLogger(); ...; expect(lines.some((l) => l.job === 'x')).toBe(true) */
export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}
