// Who may see the developer pages (/dev/outbox and its JSON form: they show one-time links and
// codes): only with the developer tools on (PAYMENT_SANDBOX), and only a browser on this machine,
// with nothing forwarded (a proxy on the same machine would make every client look local).
import { CLIENT_IP_HEADER } from '#modules/identity';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '::ffff:127.0.0.1']);
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];

/** @example fromThisMachine(new Headers({ host: 'localhost:3000', 'x-shop-client-ip': '127.0.0.1' })) === true */
export function fromThisMachine(headers: Headers): boolean {
  const host = (headers.get('host') ?? '').replace(/:\d+$/, '');
  const client = headers.get(CLIENT_IP_HEADER) ?? '';
  return LOOPBACK.has(host) && LOOPBACK.has(client) && !FORWARDING_HEADERS.some((name) => headers.has(name));
}

/** @example if (!devToolsAllowed(config, request.headers)) throw notFound(pathname) */
export function devToolsAllowed(config: { devToolsEnabled: boolean }, headers: Headers): boolean {
  return config.devToolsEnabled && fromThisMachine(headers);
}
