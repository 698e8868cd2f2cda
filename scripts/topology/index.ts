// `npm run topology`: the multi-machine shop on this machine's loopback (docs/deploy.md), from deploy/'s
// own files. `up` (the default) brings it up and returns, leaving it running; `down` stops it; `status`
// prints each part; `render` fills deploy/'s templates for a real deployment.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { allPorts, portsFrom } from './layout';
import { portOpen, stopPartsOnExit } from './processes';
import { parseSettings, projectRoot, renderDeployment } from './render';
import { openTopology, startTopology, type Topology } from './topology';
import { SHOP_ENTRY } from './parts';

const USAGE = `npm run topology [-- up|down|status] [--dir <folder>] [--base-port <port>] [--no-demo]
npm run topology -- render <settings file> <output folder>

  up       (the default) monitor, primary and standby (pg_auto_failover), haproxy's primary address,
           pgbouncer, Redis, three shop instances (the first runs the jobs) and haproxy, on 127.0.0.1
           from the base port (default 7400: the shop; +1 to +6 the database side; +11… the instances)
  down     stops everything (the logs stay in the folder)
  status   each part, its process and what it says
  render   deploy/'s templates filled from a settings file like deploy/topology.env.example

  --dir        the work folder (default .topology; TOPOLOGY_DIR)
  --base-port  (default 7400; TOPOLOGY_BASE_PORT)
  --no-demo    no demo packs`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

const args = process.argv.slice(2);
const VALUED = new Set(['--dir', '--base-port']);
const positional = args.filter((arg, i) => !arg.startsWith('--') && !VALUED.has(args[i - 1] ?? ''));
const command = positional[0];
const dir = path.resolve(option(args, '--dir') ?? process.env.TOPOLOGY_DIR ?? path.join(projectRoot, '.topology'));
const say = (line: string) => console.log(`topology: ${line}`);

async function up(): Promise<void> {
  const base = Number(option(args, '--base-port') ?? process.env.TOPOLOGY_BASE_PORT ?? 7400);
  const ports = portsFrom(base);
  const taken = [];
  for (const port of allPorts(ports)) if (await portOpen(port)) taken.push(port);
  if (taken.length > 0) throw new Error(`ports in use: ${taken.join(', ')} (another --base-port, or down first)`);
  if (!fs.existsSync(SHOP_ENTRY)) {
    say('no build yet: npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  // Ctrl-C during the bring-up stops what has started (startTopology does so for its own failures).
  process.once('SIGINT', () => {
    say('interrupted: stopping what has started');
    void (openTopology(dir)?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
  const started = Date.now();
  const topology = await startTopology({ dir, ports, demoData: !args.includes('--no-demo'), say, stopOnExit: true });
  stopPartsOnExit(false);
  process.removeAllListeners('SIGINT');
  await printStatus(topology);
  console.log(
    `\nThe shop: ${topology.shopUrl} (haproxy → ${topology.instanceUrls.join(', ')}), up in ${Math.round((Date.now() - started) / 1000)} s.` +
      `\nSettings: ${path.join(dir, 'config')}; logs: ${path.join(dir, 'logs')}. Stop it: npm run topology -- down`,
  );
}

async function printStatus(topology: Topology): Promise<void> {
  const parts = await topology.status();
  const width = Math.max(...parts.map((p) => p.name.length));
  for (const part of parts)
    console.log(
      `${part.name.padEnd(width)}  ${part.running ? 'running' : 'stopped'}${part.pid ? ` (pid ${part.pid})` : ''}  ${part.detail}`,
    );
}

async function main(): Promise<void> {
  if (command === 'render') {
    const [, settingsFile, folder] = positional;
    if (!settingsFile || !folder) throw new Error(USAGE);
    const written = renderDeployment(parseSettings(fs.readFileSync(settingsFile, 'utf8')), folder);
    console.log(written.join('\n'));
    return;
  }
  if (command === undefined || command === 'up') return up();
  const topology = openTopology(dir, say);
  if (command === 'down') {
    if (!topology) return say(`no topology in ${dir}`);
    await topology.stop();
    return say(`stopped; the logs are in ${path.join(dir, 'logs')}`);
  }
  if (command === 'status') {
    if (!topology) return say(`no topology in ${dir}`);
    return printStatus(topology);
  }
  throw new Error(USAGE);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`topology: ${(error as Error).message}`);
    process.exit(1);
  },
);
