// The shop's logger: pino, one JSON line per event; request lines carry the request id.
import { pino, type Logger } from 'pino';

export type { Logger };

/** @example const logger = createLogger('info') */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'oripa-shop' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', '*.password'], remove: true },
  });
}
