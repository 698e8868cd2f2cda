// `npm run topology -- status`: each part, whether its process runs, and what it says: the data nodes'
// states, the servers haproxy has in rotation, each instance's health.
import { nodeName, nodeStates, type NodeState } from './postgres';
import { isRunning } from './processes';
import { postgresLayout, primaryServers, shopServers, type TopologyState } from './state';
import type { BackendServer } from './haproxy';

export interface PartStatus {
  name: string;
  pid?: number;
  running: boolean;
  detail: string;
}

/** Every part, the way in first. @example for (const part of await statusOf(state)) console.log(part.name, part.running) */
export async function statusOf(state: TopologyState): Promise<PartStatus[]> {
  const layout = postgresLayout(state);
  const part = (name: string, detail: string): PartStatus => ({
    name,
    pid: state.parts[name]?.pid,
    running: isRunning(state.parts[name]),
    detail,
  });
  const servers = async (read: () => Promise<BackendServer[]>) => {
    try {
      return (await read()).map((s) => `${s.server} ${s.status}`).join(', ');
    } catch (error) {
      return `(no answer: ${(error as Error).message})`;
    }
  };
  let nodes: NodeState[] = [];
  let nodesError = '';
  try {
    if (isRunning(state.parts.monitor)) nodes = nodeStates(layout);
  } catch (error) {
    nodesError = (error as Error).message.split('\n')[0] ?? '';
  }
  const nodeDetail = (name: string) => {
    const node = nodes.find((n) => n.name === name);
    return node
      ? `127.0.0.1:${node.port} ${node.current}${node.current === node.assigned ? '' : ` → ${node.assigned}`}`
      : nodesError;
  };
  const health = async (port: number) => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(3000) });
      return `http://127.0.0.1:${port} health ${response.status}`;
    } catch {
      return `http://127.0.0.1:${port} no answer`;
    }
  };
  return [
    part('lb', `http://localhost:${state.ports.shop} → ${await servers(() => shopServers(state))}`),
    ...(await Promise.all(
      state.ports.instances.map(async (port, i) =>
        part(`shop-${i + 1}`, `${await health(port)}${i === 0 ? ' (jobs)' : ''}`),
      ),
    )),
    part('pgbouncer', `127.0.0.1:${state.ports.pgbouncer}`),
    part('redis', `127.0.0.1:${state.ports.redis}`),
    part('postgres-lb', `127.0.0.1:${state.ports.pgPrimary} → ${await servers(() => primaryServers(state))}`),
    ...state.ports.nodes.map((_, i) => part(nodeName(i), nodeDetail(nodeName(i)))),
    part('monitor', `127.0.0.1:${state.ports.monitor}`),
  ];
}
