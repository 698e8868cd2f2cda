// Test kit (tests only, `#modules/messaging/testing`): a local SMTP server that requires a login and
// keeps what it receives (smtp-server, random port), and a small MIME reader to look at it: headers
// with RFC 2047 words decoded, and the text and HTML parts decoded from base64 or quoted-printable.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface MimePart {
  /** Header names in lower case, values unfolded and decoded. */
  headers: Record<string, string>;
  /** The decoded body of a leaf part (empty for a multipart). */
  body: string;
  parts: MimePart[];
}

export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  /** The user that logged in. */
  user: string | undefined;
  raw: string;
  message: MimePart;
  /** The text/plain and text/html parts, decoded. */
  text: string;
  html: string;
}

export interface SmtpCapture {
  host: string;
  port: number;
  /** smtp://user:pass@127.0.0.1:port, as SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` mails have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=), joining adjacent ones. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    });
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    }
    default:
      return body;
  }
}

/** Parses a MIME message (or part). */
export function parseMime(raw: string): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const rest = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = rest.split(`--${boundary}`).slice(1);
    const parts = sections
      .filter((section) => !section.startsWith('--'))
      .map((section) => parseMime(section.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
    return { headers, body: '', parts };
  }
  return { headers, body: decodeBody(rest, headers['content-transfer-encoding']), parts: [] };
}

function leaves(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leaves);
}

/**
 * Starts an SMTP server on 127.0.0.1 that accepts only `user`/`pass` (PLAIN or LOGIN, no TLS).
 * `refuseRecipients` are answered 550 at RCPT TO (a permanent refusal).
 * @example const smtp = await startSmtpCapture({ user: 'shop', pass: 'secret' })
 */
export async function startSmtpCapture(options: {
  user: string;
  pass: string;
  port?: number;
  refuseRecipients?: string[];
}): Promise<SmtpCapture> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const serverOptions: SMTPServerOptions = {
    secure: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.pass)
        return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuseRecipients?.includes(address.address))
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const message = parseMime(raw);
        const all = leaves(message);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw,
          message,
          text: all.find((part) => /^text\/plain/i.test(part.headers['content-type'] ?? ''))?.body ?? '',
          html: all.find((part) => /^text\/html/i.test(part.headers['content-type'] ?? ''))?.body ?? '',
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    url: `smtp://${encodeURIComponent(options.user)}:${encodeURIComponent(options.pass)}@127.0.0.1:${port}`,
    received,
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`smtp capture: ${received.length} of ${count} mails arrived`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 50);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
