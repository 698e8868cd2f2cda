// Who holds the embedded database (PGlite admits one process): DATA_DIR/operator.json names the
// running shop (pid, port, a local admin token) or the operators' command line that opened it.
// Claimed by an exclusive create, so the server and a command line never open it together
// (docs/decisions/020).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';

export const OPERATOR_FILE = 'operator.json';

export interface OperatorFile {
  holder: 'server' | 'command-line';
  pid: number;
  /** The server's port once it listens (null while it starts, and for a command line). */
  port: number | null;
  /** The server's local admin token for POST /_operator/commands (empty for a command line). */
  token: string;
  /** Tells this holder's file from another's, so that a holder removes only its own. */
  nonce: string;
  startedAt: string;
}

/** The embedded database is held by another live process: the message says who and what to do. */
export class EmbeddedDatabaseBusy extends Error {
  constructor(
    message: string,
    readonly holder: OperatorFile,
  ) {
    super(message);
    this.name = 'EmbeddedDatabaseBusy';
  }
}

/** Whether a process with this pid runs (EPERM: it runs as another user). */
export function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const filePath = (dataDir: string) => path.join(dataDir, OPERATOR_FILE);

function parse(text: string): OperatorFile | null {
  try {
    const value = JSON.parse(text) as Partial<OperatorFile>;
    if ((value.holder !== 'server' && value.holder !== 'command-line') || typeof value.pid !== 'number') return null;
    return {
      holder: value.holder,
      pid: value.pid,
      port: typeof value.port === 'number' ? value.port : null,
      token: typeof value.token === 'string' ? value.token : '',
      nonce: typeof value.nonce === 'string' ? value.nonce : '',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
    };
  } catch {
    return null;
  }
}

/** The file as it is, or null when there is none (or it cannot be read as one). */
export function readOperatorFile(dataDir: string): OperatorFile | null {
  try {
    return parse(fs.readFileSync(filePath(dataDir), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The live holder named by the file, or null: no file, or a holder that has gone (a crash, a kill).
 * A pid equal to ours is a previous life of this process (a container restarted as pid 1).
 */
export function liveHolder(dataDir: string): OperatorFile | null {
  const held = readOperatorFile(dataDir);
  return held && held.pid !== process.pid && processIsAlive(held.pid) ? held : null;
}

/** Writes `text` under a fresh name in the folder, mode 600 (the token is a key to the shop). */
function writePrivate(dataDir: string, text: string): string {
  const temporary = path.join(dataDir, `.${OPERATOR_FILE}.${randomUUID()}`);
  fs.writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  return temporary;
}

/**
 * Moves a file whose holder has gone out of the way. It is renamed to a name of our own first and
 * read there: only if it is still the gone holder's is it deleted; a file that a live holder put
 * there meanwhile is put back.
 */
function removeGone(dataDir: string, gone: string) {
  const aside = path.join(dataDir, `.${OPERATOR_FILE}.gone.${randomUUID()}`);
  try {
    fs.renameSync(filePath(dataDir), aside);
  } catch {
    return; // someone else moved it first
  }
  const moved = fs.readFileSync(aside, 'utf8');
  if (moved !== gone) {
    try {
      fs.linkSync(aside, filePath(dataDir));
    } catch {
      // A third process claimed it in between: the claims compare again on their next read.
    }
  }
  fs.rmSync(aside, { force: true });
}

/** What a holder keeps: its record, a way to publish its port, and the release. */
export interface OperatorClaim {
  record: OperatorFile;
  /** The server's port, once it listens (the file is replaced whole, never seen half-written). */
  publishPort(port: number): void;
  /** Removes the file if it is still ours. */
  release(): void;
}

/**
 * Claims the embedded database for this process, or throws EmbeddedDatabaseBusy naming the live
 * holder. The file appears whole and only if there was none (a hard link never replaces a file).
 * @example const claim = claimEmbeddedDatabase(config.dataDir, 'server'); … claim.publishPort(port); … claim.release()
 */
export function claimEmbeddedDatabase(
  dataDir: string,
  holder: OperatorFile['holder'],
  busyMessage: (held: OperatorFile) => string,
): OperatorClaim {
  fs.mkdirSync(dataDir, { recursive: true });
  const record: OperatorFile = {
    holder,
    pid: process.pid,
    port: null,
    token: holder === 'server' ? randomBytes(32).toString('base64url') : '',
    nonce: randomUUID(),
    startedAt: new Date().toISOString(),
  };
  const temporary = writePrivate(dataDir, JSON.stringify(record));
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(temporary, filePath(dataDir));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error;
      }
      let text: string;
      try {
        text = fs.readFileSync(filePath(dataDir), 'utf8');
      } catch {
        continue; // released meanwhile
      }
      const held = parse(text);
      if (held && held.pid !== process.pid && processIsAlive(held.pid))
        throw new EmbeddedDatabaseBusy(busyMessage(held), held);
      removeGone(dataDir, text);
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  const ours = () => readOperatorFile(dataDir)?.nonce === record.nonce;
  return {
    record,
    publishPort(port) {
      record.port = port;
      const next = writePrivate(dataDir, JSON.stringify(record));
      if (ours()) fs.renameSync(next, filePath(dataDir));
      else fs.rmSync(next, { force: true });
    },
    release() {
      if (ours()) fs.rmSync(filePath(dataDir), { force: true });
    },
  };
}

/** Why the server does not start on an embedded database that another process holds, and what to do. */
export function embeddedDatabaseBusyMessage(dataDir: string, held: OperatorFile): string {
  return held.holder === 'command-line'
    ? `組み込みデータベース（${dataDir}）は運用コマンド（npm run shop, pid ${held.pid}）が使っています。` +
        'コマンドが終わってから、もう一度サーバーを起動してください。'
    : `同じ DATA_DIR（${dataDir}）で別のサーバー（pid ${held.pid}${held.port ? `, ポート ${held.port}` : ''}）が動いています。` +
        '組み込みデータベースは一つのプロセスしか開けません。そのサーバーを止めるか、別の DATA_DIR を指定してください。';
}
