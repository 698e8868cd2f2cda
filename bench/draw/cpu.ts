// Who used the CPU during a benchmark phase, from /proc (Linux): the shop's server processes, this
// database's PostgreSQL backends, PostgreSQL's shared background processes, other databases'
// backends (other work on a shared machine), the load generator, and the rest of the machine.
// Backends that end during a phase (pgbench's) are kept by sampling every 250 ms.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const ticks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

function readStat(pid: number | 'self'): { comm: string; own: number; children: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      own: (Number(fields[11]) + Number(fields[12])) / ticks,
      children: (Number(fields[13]) + Number(fields[14])) / ticks,
    };
  } catch {
    return null;
  }
}

function machineBusySeconds(): number {
  try {
    const [, ...values] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / ticks;
  } catch {
    return 0;
  }
}

type PostgresClass = 'database' | 'shared' | 'otherDatabases';

/** Samples PostgreSQL processes; a backend's last seen CPU time counts after it has ended. */
export class CpuMeter {
  private seen = new Map<number, { cls: PostgresClass; cpu: number }>();
  private timer: NodeJS.Timeout;
  private available = fs.existsSync('/proc/self/stat');

  constructor(
    private databaseName: string,
    private serverPids: () => number[],
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 250);
    this.timer.unref();
  }

  private sample() {
    if (!this.available) return;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      const stat = readStat(pid);
      if (!stat || stat.comm !== 'postgres') continue;
      let cls = this.seen.get(pid)?.cls;
      if (!cls) {
        let title = '';
        try {
          title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        } catch {
          continue;
        }
        // Backends are titled "postgres: 15/main: <user> <database> <client> <state>", or without the
        // cluster's name where it has none (the topology's nodes), the client being host(port) or [local].
        const backend = /postgres: (?:[^:\s]+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(title);
        cls = !backend ? 'shared' : backend[1] === this.databaseName ? 'database' : 'otherDatabases';
      }
      this.seen.set(pid, { cls, cpu: stat.own });
    }
  }

  /** Cumulative CPU seconds so far, by role. */
  mark() {
    this.sample();
    const postgres: Record<PostgresClass, number> = { database: 0, shared: 0, otherDatabases: 0 };
    for (const { cls, cpu } of this.seen.values()) postgres[cls] += cpu;
    const self = readStat('self');
    return {
      at: performance.now(),
      machine: machineBusySeconds(),
      servers: this.serverPids().reduce((sum, pid) => sum + (readStat(pid)?.own ?? 0), 0),
      ...postgres,
      // This process's reaped children: the phase's load worker (waited for) or pgbench.
      load: self ? self.children : 0,
    };
  }

  /**
   * Cores used on average since `start`, by role, and CPU milliseconds per request when given.
   * `rest` is everything else on the machine (other processes, this script, the kernel).
   */
  since(start: ReturnType<CpuMeter['mark']>, requests?: number) {
    const end = this.mark();
    const wall = (end.at - start.at) / 1000;
    const cores = (key: Exclude<keyof typeof end, 'at'>) => Math.round(((end[key] - start[key]) / wall) * 100) / 100;
    const result = {
      wallSeconds: Math.round(wall * 100) / 100,
      coresBusy: cores('machine'),
      servers: cores('servers'),
      postgresThisDatabase: cores('database'),
      postgresShared: cores('shared'),
      loadGenerator: cores('load'),
      postgresOtherDatabases: cores('otherDatabases'),
      rest: 0,
      msPerRequest: undefined as undefined | { servers: number; postgres: number; loadGenerator: number },
    };
    result.rest = Math.max(
      0,
      Math.round(
        (result.coresBusy -
          result.servers -
          result.postgresThisDatabase -
          result.postgresShared -
          result.loadGenerator -
          result.postgresOtherDatabases) *
          100,
      ) / 100,
    );
    if (requests) {
      const ms = (seconds: number) => Math.round((seconds * 1000 * 100) / requests) / 100;
      result.msPerRequest = {
        servers: ms(end.servers - start.servers),
        postgres: ms(end.database - start.database + end.shared - start.shared),
        loadGenerator: ms(end.load - start.load),
      };
    }
    return result;
  }

  stop() {
    clearInterval(this.timer);
  }
}
