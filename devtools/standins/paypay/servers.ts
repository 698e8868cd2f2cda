// The PayPay stand-in's two listeners: HTTPS with a self-signed certificate made at start, and plain HTTP.
import { isIP, type AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { generate } from 'selfsigned';
import { DAY_MS } from './state';

export async function generateCertificate(host: string): Promise<{ key: string; cert: string }> {
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (host !== '0.0.0.0' && host !== '::' && host !== 'localhost' && host !== '127.0.0.1' && host !== '::1') {
    altNames.push(isIP(host) ? { type: 7, ip: host } : { type: 2, value: host });
  }
  const pems = await generate([{ name: 'commonName', value: 'paypay-standin.local' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 30 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export function urlHostFor(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

export function listen(
  start: (listener: (info: AddressInfo) => void) => ServerType,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = start((info) => resolve({ server, port: info.port }));
    server.once('error', reject);
  });
}

export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    const closable = server as ServerType & { closeAllConnections?: () => void };
    closable.closeAllConnections?.();
  });
}
