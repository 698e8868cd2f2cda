// DATA_DIR/operator.json: one holder at a time, a gone holder's file taken over, only one's own released.
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  claimEmbeddedDatabase,
  EmbeddedDatabaseBusy,
  liveHolder,
  OPERATOR_FILE,
  readOperatorFile,
  type OperatorFile,
} from './operator-file';

const folders: string[] = [];
const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-operator-file-'));
  folders.push(dir);
  return dir;
};
afterAll(() => folders.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const busy = (held: OperatorFile) => `busy: ${held.holder} ${held.pid}`;
/** A pid that ran and has gone. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const write = (dir: string, record: Partial<OperatorFile>) =>
  fs.writeFileSync(
    path.join(dir, OPERATOR_FILE),
    JSON.stringify({ holder: 'server', port: null, token: '', nonce: 'other', startedAt: '', ...record }),
  );

describe('claimEmbeddedDatabase', () => {
  it('writes the holder whole, mode 600, publishes the port, and removes only its own file', () => {
    const dir = folder();
    const claim = claimEmbeddedDatabase(dir, 'server', busy);
    expect(readOperatorFile(dir)).toMatchObject({ holder: 'server', pid: process.pid, port: null });
    expect(claim.record.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, OPERATOR_FILE)).mode & 0o777).toBe(0o600);
    claim.publishPort(4321);
    expect(readOperatorFile(dir)).toMatchObject({ port: 4321, token: claim.record.token });
    // Our own pid in the file is a previous life of this process, never a live holder.
    expect(liveHolder(dir)).toBeNull();
    claim.release();
    expect(fs.existsSync(path.join(dir, OPERATOR_FILE))).toBe(false);
    // Temporary files do not pile up.
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses while another live process holds it, naming the holder', () => {
    const dir = folder();
    // The test runner's parent is alive and is not this process.
    write(dir, { holder: 'command-line', pid: process.ppid, nonce: 'theirs' });
    expect(liveHolder(dir)).toMatchObject({ holder: 'command-line', pid: process.ppid });
    let refusal: unknown;
    try {
      claimEmbeddedDatabase(dir, 'server', busy);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(EmbeddedDatabaseBusy);
    expect((refusal as Error).message).toBe(`busy: command-line ${process.ppid}`);
    expect(readOperatorFile(dir)).toMatchObject({ nonce: 'theirs' });
  });

  it('takes over the file of a holder that has gone, and an unreadable one', () => {
    const dir = folder();
    write(dir, { pid: deadPid(), port: 1 });
    expect(liveHolder(dir)).toBeNull();
    const claim = claimEmbeddedDatabase(dir, 'command-line', busy);
    expect(readOperatorFile(dir)).toMatchObject({ holder: 'command-line', pid: process.pid, token: '' });
    claim.release();
    fs.writeFileSync(path.join(dir, OPERATOR_FILE), '{half');
    claimEmbeddedDatabase(dir, 'server', busy).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('leaves a file that another holder put there in place on release', () => {
    const dir = folder();
    const claim = claimEmbeddedDatabase(dir, 'server', busy);
    write(dir, { pid: process.ppid, nonce: 'newer' });
    claim.publishPort(80);
    claim.release();
    expect(readOperatorFile(dir)).toMatchObject({ nonce: 'newer', port: null });
  });
});
