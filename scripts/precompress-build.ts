// After `react-router build`: writes brotli (.br) and gzip (.gz) twins of the client's text files,
// so the server sends compressed bytes without spending CPU per request (server/static-files.ts).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** Extensions of text files worth compressing (the rest are images, fonts and already compressed). */
const TEXT_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.map',
  '.webmanifest',
]);
/**
 * Below this a compressed twin saves less than its framing and a file-system look-up cost. A page loads
 * many small chunks (300–1,000 bytes each): compressed, they save a phone's first load a few kB (issue 17).
 */
const MIN_BYTES = 256;

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `file.br` (quality 11) and `file.gz` (level 9) beside every text file of `dir` of at least
 * 256 bytes, keeping a twin only when it is smaller, with the original's modification time.
 * @example precompressDirectory('build/client') // { files: 42, bytes: 812345, brotliBytes: 190221 }
 */
export function precompressDirectory(dir: string): { files: number; bytes: number; brotliBytes: number } {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  for (const file of walk(dir)) {
    if (!TEXT_EXTENSIONS.has(path.extname(file).toLowerCase())) continue;
    const data = fs.readFileSync(file);
    if (data.byteLength < MIN_BYTES) continue;
    const stat = fs.statSync(file);
    const brotli = zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
      },
    });
    const gzip = zlib.gzipSync(data, { level: 9 });
    for (const [suffix, packed] of [
      ['.br', brotli],
      ['.gz', gzip],
    ] as const) {
      if (packed.byteLength >= data.byteLength) continue;
      fs.writeFileSync(file + suffix, packed);
      fs.utimesSync(file + suffix, stat.atime, stat.mtime);
    }
    files++;
    bytes += data.byteLength;
    brotliBytes += Math.min(brotli.byteLength, data.byteLength);
  }
  return { files, bytes, brotliBytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? path.join('build', 'client'));
  const { files, bytes, brotliBytes } = precompressDirectory(dir);
  console.log(
    `precompressed ${files} files: ${Math.round(bytes / 1024)} KiB → ${Math.round(brotliBytes / 1024)} KiB (brotli)`,
  );
}
