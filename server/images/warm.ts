// Warms the resized-image cache for the home page after start, so the first visitor does not wait
// for AVIF encodes (~12 s for a cold home page on 2 cores). Background only: never delays or fails start.
import os from 'node:os';

/** The formats browsers ask the resizer for, most common first (Chrome, Safari and Firefox accept AVIF). */
export const WARM_ACCEPTS = [
  'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  'image/webp,image/*,*/*;q=0.8',
] as const;
/** Widths above this only serve 4K desktops: not worth encoding before anyone asks. */
export const MAX_WARM_WIDTH = 2048;

/**
 * The `/_img` addresses a page's HTML asks for (src and srcset), smallest width first, without
 * widths above {@link MAX_WARM_WIDTH}.
 * @example imageUrlsIn('<img srcset="/_img?src=%2Fa.png&amp;w=640&amp;q=75 1x">') // ['/_img?src=%2Fa.png&w=640&q=75']
 */
export function imageUrlsIn(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/\/_img\?[^"'\s,<>]+/g)) urls.add(match[0].replace(/&amp;/g, '&'));
  const width = (url: string) => Number(new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('w'));
  return [...urls].filter((url) => width(url) <= MAX_WARM_WIDTH).sort((a, b) => width(a) - width(b));
}

/** Options for {@link warmImageCache}. */
export interface WarmOptions {
  /** The pages whose images are warmed, e.g. ['/']. */
  paths: string[];
  /** Answers a page request in-process (the shop's `app.fetch`). */
  fetch: (request: Request) => Response | Promise<Response>;
  /** Answers an `/_img` request in-process; default `fetch`. The image app alone keeps the request log quiet. */
  fetchImage?: (request: Request) => Response | Promise<Response>;
  origin: string;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  signal?: AbortSignal;
  /** Requests at once; default: half the cores, at least one (one on a 2-core machine). */
  concurrency?: number;
}

/**
 * Renders each page, then requests every image it names in each format of {@link WARM_ACCEPTS},
 * a few at a time, and logs one line. Never throws: a failure is logged and the warm-up ends.
 * @example void warmImageCache({ paths: ['/'], fetch: app.fetch, origin: shop.url, logger })
 */
export async function warmImageCache(options: WarmOptions): Promise<{ images: number; failed: number; ms: number }> {
  const started = performance.now();
  const concurrency = Math.max(1, options.concurrency ?? Math.floor(os.availableParallelism() / 2));
  const fetchImage = options.fetchImage ?? options.fetch;
  let images = 0;
  let failed = 0;
  try {
    const jobs: Array<{ url: string; accept: string }> = [];
    for (const path of options.paths) {
      if (options.signal?.aborted) break;
      const page = await options.fetch(
        new Request(options.origin + path, { headers: { accept: 'text/html' }, signal: options.signal }),
      );
      const html = page.ok ? await page.text() : '';
      if (!page.ok) await page.body?.cancel();
      // Every width in one format before the next format: AVIF is what almost every visitor asks for.
      for (const accept of WARM_ACCEPTS) for (const url of imageUrlsIn(html)) jobs.push({ url, accept });
    }
    const seen = new Set<string>();
    const queue = jobs.filter((job) => !seen.has(job.url + job.accept) && seen.add(job.url + job.accept));
    const worker = async () => {
      for (let job = queue.shift(); job && !options.signal?.aborted; job = queue.shift()) {
        const response = await fetchImage(
          new Request(options.origin + job.url, { headers: { accept: job.accept }, signal: options.signal }),
        );
        await response.arrayBuffer();
        if (response.ok) images++;
        else failed++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  } catch (error) {
    if (!options.signal?.aborted) options.logger.warn({ err: error }, 'image cache warm-up stopped');
  }
  const ms = Math.round(performance.now() - started);
  if (!options.signal?.aborted)
    options.logger.info(
      { paths: options.paths, images, failed, ms },
      `image cache warmed: ${images} images in ${ms} ms`,
    );
  return { images, failed, ms };
}
