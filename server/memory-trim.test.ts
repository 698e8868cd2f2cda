import { describe, it, expect, vi } from 'vitest';
import v8 from 'node:v8';
import vm from 'node:vm';
import { scaledTimeout } from '#tests/settings';
import { createMemoryTrimmer } from './memory-trim';

const glibc = Boolean(
  process.platform === 'linux' &&
  (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
);
const MiB = 1048576;

function quietLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn() };
}

/** A full collection, so freed Buffers give their native memory back to malloc. */
function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('memory trimmer', () => {
  it.skipIf(!glibc)(
    'gives freed native memory back to the system (Linux, glibc)',
    async () => {
      const trimmer = createMemoryTrimmer({ logger: quietLogger(), intervalSeconds: 0 });
      expect(trimmer.available).toBe(true);
      // 128 MiB of 64 KiB blocks with a block of the same size kept between each (a small one could come from
      // an old hole anywhere): once freed they are holes malloc keeps (free() only ever trims the top of a
      // heap), which malloc_trim gives back.
      let freed: Buffer[] = [];
      const kept: Buffer[] = [];
      for (let i = 0; i < 2048; i++) {
        freed.push(Buffer.allocUnsafeSlow(64 * 1024).fill(1));
        kept.push(Buffer.allocUnsafeSlow(64 * 1024).fill(2));
      }
      const heldBytes = process.memoryUsage().arrayBuffers;
      freed = [];
      // V8 frees array buffers' memory on a background task after the collection: wait until it has.
      await vi.waitFor(
        () => {
          collectGarbage();
          expect(heldBytes - process.memoryUsage().arrayBuffers).toBeGreaterThan(96 * MiB);
        },
        { timeout: scaledTimeout(20_000), interval: 50 },
      );
      // What is freed goes back only when trimmed: RSS falls by most of the 128 MiB (a background free may
      // land after the first trim, so trim again until it has; without malloc_trim it never falls).
      const rssFreed = process.memoryUsage.rss();
      await vi.waitFor(
        () => {
          const result = trimmer.trimNow();
          expect(result).not.toBeNull();
          expect(rssFreed - result!.rssAfter).toBeGreaterThan(96 * MiB);
        },
        { timeout: scaledTimeout(20_000), interval: 100 },
      );
      expect(kept.every((block) => block[0] === 2)).toBe(true);
      trimmer.stop();
    },
    scaledTimeout(60_000),
  );

  it.skipIf(!glibc)('trims once after a burst of calls has settled', async () => {
    const logger = quietLogger();
    const trimmer = createMemoryTrimmer({ logger, intervalSeconds: 0, settleMs: 20 });
    for (let i = 0; i < 5; i++) trimmer.soon();
    expect(logger.debug).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(logger.debug).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(logger.debug).toHaveBeenCalledTimes(1);
    expect(logger.debug.mock.calls[0]![1]).toBe('malloc_trim');
    trimmer.stop();
  });

  it('does nothing when switched off', () => {
    const logger = quietLogger();
    const trimmer = createMemoryTrimmer({ logger, intervalSeconds: -1 });
    expect(trimmer.available).toBe(false);
    expect(trimmer.trimNow()).toBeNull();
    trimmer.soon();
    trimmer.stop();
    expect(logger.debug).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
