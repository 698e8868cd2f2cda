// After `react-router build`: writes builds/latest.json and builds/meta/{id}.json for update polling.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const clientDir = path.resolve('build', 'client');
const manifest = fs.readdirSync(path.join(clientDir, 'assets')).sort().join('\n');
const id = crypto.createHash('sha256').update(manifest).digest('hex').slice(0, 16);
const timestamp = Date.now();
fs.mkdirSync(path.join(clientDir, 'builds', 'meta'), { recursive: true });
fs.writeFileSync(path.join(clientDir, 'builds', 'latest.json'), JSON.stringify({ id, timestamp }));
fs.writeFileSync(
  path.join(clientDir, 'builds', 'meta', `${id}.json`),
  JSON.stringify({ id, timestamp, matcher: { static: {}, wildcard: {}, dynamic: {} }, prerendered: [] }),
);
console.log(`build ${id}`);
