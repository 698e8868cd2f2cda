// What haproxy thinks of its servers, read from its stats socket (`show stat`): which shop instances
// are in the rotation, which data node is taken for the primary.
import net from 'node:net';

export interface BackendServer {
  /** The backend (shop_instances, postgres_primary). */
  backend: string;
  /** The server's name in the configuration (shop1, pg2). */
  server: string;
  /** UP, DOWN, MAINT, `UP 1/2` while rising… */
  status: string;
  /** What the last check found, e.g. `L7OK` or `L7RSP`. */
  check: string;
}

/** Sends one command to a stats socket and answers its reply. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = net.connect(socket);
    let reply = '';
    connection.setEncoding('utf8');
    connection.setTimeout(3000, () => connection.destroy(new Error(`no answer from ${socket}`)));
    connection.once('connect', () => connection.write(`${command}\n`));
    connection.on('data', (chunk: string) => (reply += chunk));
    connection.once('end', () => resolve(reply));
    connection.once('error', reject);
  });
}

/**
 * Every server of every backend (not the frontends' and backends' own rows).
 * @example (await backendServers(sock)).filter((s) => s.status === 'UP').map((s) => s.server)
 */
export async function backendServers(socket: string): Promise<BackendServer[]> {
  const [header, ...lines] = (await ask(socket, 'show stat')).trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const at = (name: string) => columns.indexOf(name);
  return lines
    .map((line) => line.split(','))
    .filter((cells) => cells[at('svname')] !== 'FRONTEND' && cells[at('svname')] !== 'BACKEND')
    .map((cells) => ({
      backend: cells[at('pxname')] ?? '',
      server: cells[at('svname')] ?? '',
      status: cells[at('status')] ?? '',
      check: cells[at('check_status')] ?? '',
    }));
}
