// The topology's long-running parts as processes of their own: started detached (they outlive
// `npm run topology`), recorded by id, stopped by id only after checking that the id is still theirs,
// and run as the `postgres` user where PostgreSQL's tools and pgbouncer refuse root.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** A started part, as recorded in the work folder's topology.json. */
export interface PartRecord {
  pid: number;
  /** Its stdout and stderr. */
  log: string;
  /** Text its command line holds: a recorded id that a later process has taken is never signalled. */
  match: string;
}

/** Who PostgreSQL's tools run as: the postgres user when this process is root, else this user. */
export interface RunAs {
  uid: number;
  gid: number;
  home: string;
}

/**
 * The postgres user when running as root (initdb, postgres, pg_autoctl and pgbouncer refuse root), null
 * when not root (they run as this user); a string says why neither works.
 * @example const runAs = postgresUser(); if (typeof runAs === 'string') throw new Error(runAs)
 */
export function postgresUser(): RunAs | null | string {
  if (process.getuid?.() !== 0) return null;
  try {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })));
    return { uid: uid!, gid: gid!, home: '/var/lib/postgresql' };
  } catch {
    return 'running as root, and there is no postgres user to run PostgreSQL and pgbouncer as';
  }
}

/** The environment a part starts with: nothing of this process's own beyond the basics, plus `extra`. */
export function baseEnvironment(runAs: RunAs | null, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    TZ: process.env.TZ,
    ...(runAs ? { HOME: runAs.home, USER: 'postgres', LOGNAME: 'postgres' } : { HOME: process.env.HOME }),
    ...extra,
  };
}

/** Parts started by this process and not stopped yet: killed if it exits without stopping them (a test). */
const started = new Map<number, PartRecord>();
/** Extra clean-up for an exit without a stop (PostgreSQL's servers under a killed pg_autoctl). */
const lastWishes = new Set<() => void>();
let stopOnExit = false;
process.once('exit', () => {
  if (!stopOnExit) return;
  for (const part of started.values()) if (isRunning(part)) killGroup(part.pid, 'SIGKILL');
  for (const wish of lastWishes) wish();
});

/**
 * Whether the parts this process starts are killed when it exits without stopping them: on for a test,
 * on for `npm run topology` until the topology is up (then they must outlive it).
 */
export function stopPartsOnExit(on: boolean, lastWish?: () => void): void {
  stopOnExit = on;
  if (lastWish) lastWishes.add(lastWish);
  if (!on) lastWishes.clear();
}

/**
 * Starts a long-running part detached (its own process group), its output appended to `log`.
 * @example const redis = launch({ command: 'redis-server', args: ['--port', '7406'], log, match: 'redis-server' })
 */
export function launch(options: {
  command: string;
  args: string[];
  log: string;
  match: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  runAs?: RunAs | null;
}): PartRecord {
  const fd = fs.openSync(options.log, 'a');
  fs.writeSync(fd, `\n--- ${new Date().toISOString()} ${options.command} ${options.args.join(' ')} ---\n`);
  try {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', fd, fd],
      ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
    });
    child.on('error', () => undefined); // a missing program shows as an exit: isRunning answers false
    child.unref();
    if (!child.pid) throw new Error(`${options.command} did not start (is it installed?)`);
    const part = { pid: child.pid, log: options.log, match: options.match };
    started.set(part.pid, part);
    return part;
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the recorded id still runs the part's program (an exited process's id may be reused). */
export function isRunning(part: PartRecord | undefined): boolean {
  if (!part) return false;
  try {
    process.kill(part.pid, 0);
  } catch {
    return false;
  }
  try {
    const commandLine = fs.readFileSync(`/proc/${part.pid}/cmdline`, 'utf8');
    // A zombie (exited, not yet reaped by this process) has an empty command line.
    return commandLine.replaceAll('\0', ' ').includes(part.match);
  } catch {
    return true; // no /proc: trust the id
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops a part: `signal` to it, then SIGKILL to its whole group after `graceMs`; resolves once it is gone.
 * @example await stopPart(state.parts.pgbouncer, 'SIGTERM', 5000)
 */
export async function stopPart(part: PartRecord | undefined, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!part || !isRunning(part)) return forget(part);
  try {
    process.kill(part.pid, signal);
  } catch {
    return forget(part);
  }
  await waitUntilGone(part, graceMs);
  if (isRunning(part)) {
    killGroup(part.pid, 'SIGKILL');
    await waitUntilGone(part, 5000);
  }
  forget(part);
}

/**
 * SIGKILL to a part's whole process group, its children included even when the part itself has gone
 * (pg_autoctl's `start/stop postgres` child outlives a killed `pg_autoctl run` and would start PostgreSQL
 * again); resolves once the part is gone.
 * @example await killPartGroup(state.parts.node1)
 */
export async function killPartGroup(part: PartRecord | undefined): Promise<void> {
  if (!part) return;
  killGroup(part.pid, 'SIGKILL');
  await waitUntilGone(part, 5000);
  forget(part);
}

/** Waits (up to `ms`) until the part has exited. */
export async function waitUntilGone(part: PartRecord, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (isRunning(part) && Date.now() < deadline) await sleep(50);
}

function forget(part: PartRecord | undefined) {
  if (part) started.delete(part.pid);
}

/**
 * Runs a command to its end (as `runAs` when given); its output is answered, and a failure throws with it.
 * @example runToEnd('pg_autoctl', ['show', 'state', '--pgdata', dir], { env, cwd, runAs })
 */
export function runToEnd(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; runAs?: RunAs | null; timeoutMs?: number },
): string {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}\n${output}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${output.trim()}`);
  return output;
}

/**
 * Polls `check` until it answers true; fails when `ms` pass or the part it waits on has exited, with the
 * end of that part's log.
 * @example await waitFor('pgbouncer to listen', () => portOpen(7405), 30_000, parts.pgbouncer)
 */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  ms: number,
  part?: PartRecord,
): Promise<void> {
  const deadline = Date.now() + ms;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = (error as Error).message;
    }
    if (part && !isRunning(part)) throw new Error(`${what}: the process exited\n${tail(part.log, 30)}`);
    await sleep(200);
  }
  throw new Error(
    `${what}: not within ${Math.round(ms / 1000)} s${lastError ? ` (last: ${lastError})` : ''}${part ? `\n${tail(part.log, 30)}` : ''}`,
  );
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The last `lines` lines of a log file. */
export function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}

/** Whether a program is on the PATH (or an absolute path to one exists). */
export function hasProgram(name: string): boolean {
  if (name.startsWith('/')) return fs.existsSync(name);
  return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).status === 0;
}
