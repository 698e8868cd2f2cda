// The page's scripts start loading after its first paint (docs/decisions/049). React Router's <Scripts>
// writes a `<link rel="modulepreload">` for every script the page needs (React hoists them into <head>)
// and a module script whose static `import`s fetch the route modules as soon as the parser reaches it:
// on a phone's slow line the ~150 kB of JavaScript then shares the bandwidth with the stylesheet and the
// first image, and the page paints late. Here the document keeps its HTML and the same module script,
// but the preloads and the imports run once the browser has painted the first frame (at once in a
// hidden tab, which paints nothing): the same files, fetched in parallel, a frame later, a few per task.
import { Transform } from 'node:stream';

const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const HREF = /\bhref="(\/[^"<>]*)"/;
/**
 * React Router's module script: `<script … type="module" …>;` then one `import * as x from "…";` per route
 * chunk, and something after the last of them (a streamed document may stop in the middle of the next).
 */
const MODULE_SCRIPT =
  /(<script\b[^>]*\btype="module"[^>]*>);\n((?:import \* as \w+ from "\/[^"\\<>]*";\n)+)(?=[^i]|i(?=[\s\S]{6})(?!mport ))/;
const IMPORT_LINE = /import \* as (\w+) from ("\/[^"\\<>]*");/g;
/**
 * Module preloads started in one task before the page yields to the browser. Each costs the main thread
 * ~0.5 ms unthrottled (Chromium's requestResource; several times that while the page loads), so the ~30
 * of a page in one go were a long task of their own on a slow phone (issue 32 item 4); a few at a time,
 * with the browser free between them, start the same fetches in the same order.
 */
const PRELOADS_PER_TASK = 3;
/** What MODULE_SCRIPT's tag always holds: nothing is tried before these bytes have arrived. */
const MODULE_TAG = Buffer.from('type="module"', 'utf8');
/** Give up (and send the document as it came) past this much HTML without the module script. */
const MAX_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Rewrites the part of a document up to and including the start of React Router's module script, so
 * that its scripts load after the first paint; null when that script is not (yet) in `html`. `end` is
 * where the rewritten part ends in `html`: what follows is unchanged.
 * @example rewriteUpToModuleScript(html)?.text.includes('requestAnimationFrame') // true for a page
 */
export function rewriteUpToModuleScript(html: string): { text: string; end: number } | null {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return null;
  const preloads: string[] = [];
  const before = html.slice(0, script.index).replace(MODULE_PRELOAD, (link) => {
    const href = HREF.exec(link)?.[1];
    if (href && !preloads.includes(href)) preloads.push(href);
    return '';
  });
  const imports = [...script[2]!.matchAll(IMPORT_LINE)];
  const names = imports.map((line) => line[1]!);
  const loads = imports.map((line) => `import(${line[2]!})`);
  const loader =
    `${script[1]!};\n` +
    `await new Promise((go) => document.visibilityState === 'hidden' ? go() : requestAnimationFrame(() => setTimeout(go, 0)));\n` +
    `const preloads = ${JSON.stringify(preloads)};\n` +
    `for (let i = 0; i < preloads.length; i++) {\n` +
    `  if (i > 0 && i % ${PRELOADS_PER_TASK} === 0 && document.visibilityState !== 'hidden') await (globalThis.scheduler?.yield ? scheduler.yield() : new Promise((go) => { const channel = new MessageChannel(); channel.port1.onmessage = () => go(); channel.port2.postMessage(0); }));\n` +
    `  const link = document.createElement('link'); link.rel = 'modulepreload'; link.href = preloads[i]; document.head.appendChild(link);\n` +
    `}\n` +
    `const [${names.join(', ')}] = await Promise.all([${loads.join(', ')}]);\n`;
  return { text: before + loader, end: script.index + script[0].length };
}

/**
 * A whole document with its scripts loading after the first paint (unchanged without React Router's
 * module script).
 * @example deferScriptsAfterPaint(html).includes('rel="modulepreload"') // false for a page
 */
export function deferScriptsAfterPaint(html: string): string {
  const rewritten = rewriteUpToModuleScript(html);
  return rewritten ? rewritten.text + html.slice(rewritten.end) : html;
}

/**
 * A stream for a rendered document: holds the HTML until React Router's module script has gone by (the
 * end of the shell, which React writes at once), rewrites it with {@link rewriteUpToModuleScript}, then
 * passes the rest (streamed Suspense chunks) through byte for byte.
 * @example pipe(scriptsAfterPaint().pipe(body))
 */
export function scriptsAfterPaint(): Transform {
  const held: Buffer[] = [];
  let heldBytes = 0;
  // Until the module script's tag has arrived nothing can be rewritten: the chunks are only kept (a
  // page is ~20 chunks; reading the whole held HTML again at each one cost ~0.9 ms a page).
  let tagSeen = false;
  let tail = Buffer.alloc(0);
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (passing) return callback(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      if (!tagSeen) {
        const probe = Buffer.concat([tail, chunk]);
        tagSeen = probe.includes(MODULE_TAG);
        tail = probe.subarray(Math.max(0, probe.length - MODULE_TAG.length + 1));
        if (!tagSeen && heldBytes <= MAX_BUFFER_BYTES) return callback();
      }
      const bytes = Buffer.concat(held);
      // Read byte for byte (latin1): what is matched and written is ASCII, every other byte goes back out
      // as it came, a character cut between chunks included, and offsets in the text are offsets in bytes.
      const html = bytes.toString('latin1');
      const rewritten = rewriteUpToModuleScript(html);
      if (rewritten === null && bytes.length <= MAX_BUFFER_BYTES) {
        held.splice(0, held.length, bytes);
        return callback();
      }
      passing = true;
      held.length = 0;
      if (rewritten === null) return callback(null, bytes);
      callback(null, Buffer.concat([Buffer.from(rewritten.text, 'latin1'), bytes.subarray(rewritten.end)]));
    },
    flush(callback) {
      if (passing || held.length === 0) return callback();
      callback(null, Buffer.concat(held));
    },
  });
}
