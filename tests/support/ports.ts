// A free local port for test and benchmark servers.
//
// Never one from the kernel's ephemeral range (ip_local_port_range, 32768–60999 by default): every outgoing
// connection (a test's fetch, a pool's connection to PostgreSQL) takes its local port from there, so a port
// that was free when it was chosen could be some connection's by the time a slowly starting shop listens on
// it, or restarts on it after a kill (the storm saw EADDRINUSE that way). Ports below the range are only
// ever taken by a listener. Each Vitest worker draws from its own slice, and a process never hands out one
// port twice, so two servers of one run cannot be given the same port either.
import fs from 'node:fs';
import net from 'node:net';
import type { TopologyPorts } from '#scripts/topology/topology';

const handedOut = new Set<number>();

/** The first and last port the kernel may give an outgoing connection. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: the IANA range, which macOS and Windows use.
  }
  return [49152, 65535];
}

/** The ports this process may choose from: below the ephemeral range, a slice per Vitest worker. */
function slice(): [number, number] {
  const [low, high] = ephemeralRange();
  const [first, last] = low > 12_000 ? [10_000, low - 1] : [high + 1, 65_535];
  const workers = 8;
  const worker = (Number(process.env.VITEST_POOL_ID ?? process.pid) || 0) % workers;
  const size = Math.floor((last - first + 1) / workers);
  return [first + worker * size, first + (worker + 1) * size - 1];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port nobody listens on right now, outside the ephemeral range, not handed out before by this process. */
export async function freePort(): Promise<number> {
  const [first, last] = slice();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = first + Math.floor(Math.random() * (last - first + 1));
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${first} and ${last}`);
}

/** A port for every part of the topology (scripts/topology), all different. */
export async function topologyPorts(): Promise<TopologyPorts> {
  return {
    shop: await freePort(),
    monitor: await freePort(),
    nodes: [await freePort(), await freePort()],
    pgPrimary: await freePort(),
    pgbouncer: await freePort(),
    redis: await freePort(),
    instances: [await freePort(), await freePort(), await freePort()],
  };
}
