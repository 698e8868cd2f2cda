// npm run bench:memory — the resident memory of one shop on the embedded database (PGlite, no
// DATABASE_URL) with the demo data, started the way `npm start` starts it, and where that memory goes.
//
// Two runs on one fresh DATA_DIR: `firstStart` (the database is created, migrated and the demo data
// loaded) and `restart` (the same folder opened again, as after a deploy). Each run spawns the start
// command of package.json's `start` script (after its `npm run build &&`), waits for /api/health,
// waits for the background image warm-up to finish (its log line), views the home page, a genre, a
// pack page and two images (one from the warm cache, one encoded on demand), then reads /proc:
// VmRSS and VmHWM of the server process and of the whole process tree (a TypeScript loader runs a
// parent process and an esbuild service beside the server), and a breakdown of the server's
// mappings (PGlite's WebAssembly memory, malloc arenas, V8's heap through a SIGUSR2 probe, code).
// Settings: BENCH_ENV='{"IMAGE_WARM_UP":"false"}' adds settings to both runs; BENCH_COMMAND='node x.js'
// replaces the start command; BENCH_SAVE=0 does not write bench/results/memory.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '#tests/ports';
import { describeMachine } from '../machine';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const MiB = 2 ** 20;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The command `npm start` runs after building, e.g. `tsx server/start.ts`. */
function startCommand(): string {
  if (process.env.BENCH_COMMAND) return process.env.BENCH_COMMAND;
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const start = scripts.start ?? '';
  const after = start.split('&&').map((part) => part.trim());
  return after.filter((part) => !part.startsWith('npm run build')).join(' && ');
}

interface Mapping {
  start: bigint;
  end: bigint;
  perm: string;
  name: string;
  rssKb: number;
  sizeKb: number;
}

function readMappings(pid: number): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      current = {
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perm: header[3]!,
        name: header[4]!.trim(),
        rssKb: 0,
        sizeKb: 0,
      };
      mappings.push(current);
      continue;
    }
    const field = /^(Rss|Size):\s+(\d+) kB/.exec(line);
    if (field && current) current[field[1] === 'Rss' ? 'rssKb' : 'sizeKb'] = Number(field[2]);
  }
  return mappings;
}

/**
 * Where a process's resident memory lies, from /proc/PID/smaps. WebAssembly memories are the
 * read-write part of a reservation of many GiB (V8 reserves 8 GiB and guard pages per memory, the rest
 * stays inaccessible); malloc's arenas are 64 MiB-aligned reservations; `[heap]` is the main arena.
 */
function breakdown(pid: number) {
  const mappings = readMappings(pid);
  let wasmKb = 0;
  let mallocKb = 0;
  let filesKb = 0;
  let otherAnonKb = 0;
  const GiB = 2n ** 30n;
  const arenaSize = 64n * 2n ** 20n;
  for (let i = 0; i < mappings.length; i++) {
    const m = mappings[i]!;
    const next = mappings[i + 1];
    if (m.rssKb === 0) continue;
    if (m.name === '[heap]') mallocKb += m.rssKb;
    else if (m.name.startsWith('/')) filesKb += m.rssKb;
    else if (m.name !== '')
      otherAnonKb += m.rssKb; // [stack], [vdso]…
    else if (next && next.start === m.end && next.perm === '---p' && next.end - m.start >= 4n * GiB) wasmKb += m.rssKb;
    else if (m.start % arenaSize === 0n && m.end - m.start <= arenaSize) mallocKb += m.rssKb;
    else otherAnonKb += m.rssKb;
  }
  return {
    wasmMiB: mib(wasmKb * 1024),
    mallocMiB: mib(mallocKb * 1024),
    filesMiB: mib(filesKb * 1024),
    otherAnonMiB: mib(otherAnonKb * 1024),
  };
}

function status(pid: number): { rssMiB: number; hwmMiB: number; threads: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { rssMiB: mib(field('VmRSS') * 1024), hwmMiB: mib(field('VmHWM') * 1024), threads: field('Threads') };
}

/** The process and its descendants, parents first. */
function processTree(root: number): Array<{ pid: number; command: string }> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: Array<{ pid: number; command: string }> = [];
  const visit = (pid: number) => {
    let command = '?';
    try {
      command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      return;
    }
    tree.push({ pid, command: command.length > 160 ? `${command.slice(0, 157)}...` : command });
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

/** The shop's own process: the last node process of the tree (a loader's parent process comes first). */
function serverPid(tree: Array<{ pid: number; command: string }>): number {
  const nodes = tree.filter((p) => /(^|\/)node\b/.test(p.command.split(' ')[0] ?? ''));
  return (nodes.at(-1) ?? tree[0]!).pid;
}

async function v8Heap(pid: number, probeDir: string) {
  const file = path.join(probeDir, `${pid}.json`);
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50 && !fs.existsSync(file); i++) await sleep(100);
  if (!fs.existsSync(file)) return null;
  const probe = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    memoryUsage: NodeJS.MemoryUsage;
    heap: { totalPhysicalSize: number; usedHeapSize: number; heapSizeLimit: number };
    spaces: Record<string, number>;
    usedAfterGc: number;
  };
  return {
    physicalMiB: mib(probe.heap.totalPhysicalSize),
    usedMiB: mib(probe.heap.usedHeapSize),
    usedAfterGcMiB: mib(probe.usedAfterGc),
    limitMiB: mib(probe.heap.heapSizeLimit),
    externalMiB: mib(probe.memoryUsage.external),
    arrayBuffersMiB: mib(probe.memoryUsage.arrayBuffers),
    spacesMiB: Object.fromEntries(Object.entries(probe.spaces).map(([name, bytes]) => [name, mib(bytes)])),
  };
}

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, child: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server exited');
    if (await predicate()) return true;
    await sleep(100);
  }
  return false;
}

async function get(url: string, accept = 'text/html'): Promise<{ status: number; body: string; bytes: number }> {
  const response = await fetch(url, { headers: { accept } });
  const buffer = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    body: accept.startsWith('text') ? buffer.toString('utf8') : '',
    bytes: buffer.length,
  };
}

async function run(label: string, dataDir: string, probeDir: string) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, `${label}.log`);
  const log = fs.openSync(logFile, 'w');
  const extra = JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>;
  const started = performance.now();
  const child = spawn(startCommand(), {
    shell: true,
    cwd: projectRoot,
    stdio: ['ignore', log, log],
    env: {
      PATH: `${path.join(projectRoot, 'node_modules', '.bin')}:${process.env.PATH}`,
      HOME: process.env.HOME,
      TZ: process.env.TZ,
      LANG: process.env.LANG,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'probe.mjs')}`,
      MEMORY_PROBE_DIR: probeDir,
      ...extra,
    },
  });
  fs.closeSync(log);
  try {
    const healthy = await waitFor(
      async () => {
        try {
          return (await get(`${origin}/api/health`, 'application/json')).status === 200;
        } catch {
          return false;
        }
      },
      180_000,
      child,
    );
    if (!healthy) throw new Error(`${label}: not healthy within 180 s`);
    const timeToHealthyMs = Math.round(performance.now() - started);
    const atHealthy = status(serverPid(processTree(child.pid!)));
    // The warm-up encodes the home page's images in the background; memory is read after it.
    const warmUpLine = () => fs.readFileSync(logFile, 'utf8').includes('image cache warmed');
    const warmUpOff = extra.IMAGE_WARM_UP === 'false';
    const warmed = warmUpOff || (await waitFor(warmUpLine, 300_000, child));
    const warmUpMs = Math.round(performance.now() - started) - timeToHealthyMs;
    const pages = ['/', '/gacha/pokemon', '/gacha/pokemon/stellar-pokemon-001'];
    const views: Array<{ path: string; status: number; bytes: number }> = [];
    let html = '';
    for (const page of pages) {
      const answer = await get(origin + page);
      if (page === pages[2]) html = answer.body;
      views.push({ path: page, status: answer.status, bytes: answer.bytes });
    }
    // One image the warm-up cached (the home page's) and one it did not (the pack page's largest width).
    const images = [...html.matchAll(/\/_img\?[^"'\s,<>]+/g)].map((m) => m[0].replaceAll('&amp;', '&'));
    const homeImages = [...(views[0] ? (await get(origin + '/')).body.matchAll(/\/_img\?[^"'\s,<>]+/g) : [])].map((m) =>
      m[0].replaceAll('&amp;', '&'),
    );
    for (const image of [homeImages[0], images.at(-1)].filter((u): u is string => Boolean(u))) {
      const answer = await get(origin + image, 'image/avif,image/webp,image/*,*/*;q=0.8');
      views.push({ path: image, status: answer.status, bytes: answer.bytes });
    }
    await sleep(2000);
    const tree = processTree(child.pid!);
    const pid = serverPid(tree);
    const processes = tree.map((p) => ({ ...p, ...status(p.pid) }));
    const report = {
      label,
      timeToHealthyMs,
      warmUpMs: warmUpOff ? null : warmed ? warmUpMs : 'unfinished',
      views,
      server: { pid, atHealthy, ...status(pid), breakdown: breakdown(pid), v8: await v8Heap(pid, probeDir) },
      tree: {
        rssMiB: mib(processes.reduce((sum, p) => sum + p.rssMiB * MiB, 0)),
        processes,
      },
    };
    return report;
  } finally {
    // Every process of the tree by its id (a loader's server child outlives its parent for a moment).
    const pids = processTree(child.pid!).map((p) => p.pid);
    for (const pid of [...pids].reverse()) signal(pid, 'SIGTERM');
    const alive = () => pids.filter((pid) => fs.existsSync(`/proc/${pid}`));
    for (let i = 0; i < 150 && alive().length > 0; i++) await sleep(100);
    for (const pid of alive()) signal(pid, 'SIGKILL');
  }
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
const dataDir = path.join(root, 'data');
const probeDir = path.join(root, 'probe');
fs.mkdirSync(dataDir);
fs.mkdirSync(probeDir);
try {
  const firstStart = await run('firstStart', dataDir, probeDir);
  const restart = await run('restart', dataDir, probeDir);
  const report = {
    benchmark: 'memory',
    date: new Date().toISOString(),
    machine: describeMachine(),
    database: 'pglite',
    command: startCommand(),
    settings: JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>,
    goalMiB: 300,
    runs: [firstStart, restart],
    allOk: [firstStart, restart].every((r) => r.views.every((v) => v.status === 200)),
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0') {
    fs.mkdirSync(path.join(projectRoot, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(projectRoot, 'bench', 'results', 'memory.json'), `${out}\n`);
  }
  if (!report.allOk) process.exitCode = 1;
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
