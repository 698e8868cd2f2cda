// Gives the memory that native code has freed back to the system at quiet moments (docs/decisions/047).
// glibc's malloc keeps freed blocks of libvips (image encoding), V8's and Node's own allocations in its
// arenas; `malloc_trim(0)` returns every free page of every arena. Asked through koffi (a maintained FFI
// library with prebuilt binaries) because Node has no binding for it. Trimming on every free instead
// (MALLOC_TRIM_THRESHOLD_) made the image warm-up four times slower; trimming a few times a minute at
// most costs a few milliseconds each time. Anywhere but Linux with glibc, the trimmer does nothing.
import { createRequire } from 'node:module';
import type Koffi from 'koffi';
import type { Logger } from './logger';

/** What a trim gave back: resident memory before and after, in bytes. */
export interface TrimResult {
  rssBefore: number;
  rssAfter: number;
}

export interface MemoryTrimmer {
  /** True when malloc_trim could be bound (Linux with glibc). */
  readonly available: boolean;
  /** Trims now; null when the trimmer is unavailable or off. */
  trimNow(): TrimResult | null;
  /** Trims once, `settleMs` after the last call (a burst of image encodes ends with one trim). */
  soon(): void;
  stop(): void;
}

export interface MemoryTrimmerOptions {
  logger: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** Trim at least this often while the process runs (0: only after start-up and image encodes; -1: never). */
  intervalSeconds: number;
  /** Wait after the last {@link MemoryTrimmer.soon} call. */
  settleMs?: number;
}

type TrimFunction = (pad: number) => number;

let bound: TrimFunction | null | undefined;

/** Binds glibc's malloc_trim once per process; null where there is no glibc or no koffi binary. */
function bindMallocTrim(logger: MemoryTrimmerOptions['logger']): TrimFunction | null {
  if (bound !== undefined) return bound;
  bound = null;
  if (process.platform !== 'linux') return bound;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (!header?.glibcVersionRuntime) return bound; // musl (Alpine) has no malloc_trim
  try {
    const require = createRequire(import.meta.url);
    const koffi = require('koffi') as typeof Koffi;
    const libc = koffi.load('libc.so.6');
    bound = libc.func('int malloc_trim(size_t pad)') as TrimFunction;
  } catch (error) {
    logger.warn({ err: error }, 'malloc_trim is not available: freed native memory stays with the process');
  }
  return bound;
}

/**
 * @example
 * const trimmer = createMemoryTrimmer({ logger, intervalSeconds: 60 });
 * images.onTransform = () => trimmer.soon();
 */
export function createMemoryTrimmer(options: MemoryTrimmerOptions): MemoryTrimmer {
  const { logger, intervalSeconds, settleMs = 2_000 } = options;
  const trim = intervalSeconds >= 0 ? bindMallocTrim(logger) : null;
  let settle: NodeJS.Timeout | undefined;
  const trimNow = (): TrimResult | null => {
    if (!trim) return null;
    const started = performance.now();
    const rssBefore = process.memoryUsage.rss();
    trim(0);
    const rssAfter = process.memoryUsage.rss();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    logger.debug({ rssBeforeMiB: mib(rssBefore), rssAfterMiB: mib(rssAfter), ms }, 'malloc_trim');
    return { rssBefore, rssAfter };
  };
  const interval =
    trim && intervalSeconds > 0 ? setInterval(() => void trimNow(), intervalSeconds * 1000).unref() : undefined;
  return {
    available: trim !== null,
    trimNow,
    soon() {
      if (!trim) return;
      if (settle) clearTimeout(settle);
      settle = setTimeout(() => {
        settle = undefined;
        trimNow();
      }, settleMs).unref();
    },
    stop() {
      if (settle) clearTimeout(settle);
      if (interval) clearInterval(interval);
    },
  };
}

const mib = (bytes: number) => Math.round(bytes / 1048576);
