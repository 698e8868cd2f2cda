// The outbox's settings (SMTP and Twilio come as complete sets; a half set stops the start and
// names what is missing), the developer tools' switch, and the small pure helpers of the wiring.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { createMessagingServices, linksOf, siteIdentityOf } from './messaging';
import { createLogger } from './logger';
import { fromThisMachine } from './dev-tools';

// ADDRESS_ENCRYPTION_KEYS: an https shop must name its address key (docs/decisions/019).
const base = {
  DATA_DIR: '/tmp/oripa-messaging-config',
  AUTH_SECRET: 'x'.repeat(40),
  ADDRESS_ENCRYPTION_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
};
const SID = `AC${'0'.repeat(32)}`;
const TOKEN = 'a'.repeat(32);

function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the settings were accepted');
}

describe('messaging settings', () => {
  it('defaults: no transport, bodies kept 7 days, developer tools with the sandbox', async () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({ OUTBOX_RETENTION_DAYS: 7, devToolsEnabled: true });
    expect(config.SMTP_URL).toBeUndefined();
    expect(loadConfig({ ...base, PUBLIC_ORIGIN: 'https://oripa.example.jp' }).devToolsEnabled).toBe(false);
    expect(loadConfig({ ...base, PAYMENT_SANDBOX: 'false' }).devToolsEnabled).toBe(false);
    const messaging = await createMessagingServices(config, createLogger('silent'));
    expect(messaging.transports).toEqual({});
    expect(messaging.twilio).toBeUndefined();
    expect(siteIdentityOf(config)).toEqual({ name: 'オリパ ステラ', origin: 'http://localhost:3000' });
  });

  it('accepts complete sets and builds both transports, with the status callback on the public origin', async () => {
    const config = loadConfig({
      ...base,
      PUBLIC_ORIGIN: 'https://oripa.example.jp',
      SMTP_URL: 'smtp://user:pass@mail.example.jp:587',
      MAIL_FROM: 'オリパ ステラ <no-reply@example.jp>',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: '+815012345678',
      OUTBOX_RETENTION_DAYS: '3',
    });
    expect(config.OUTBOX_RETENTION_DAYS).toBe(3);
    const messaging = await createMessagingServices(config, createLogger('silent'));
    expect(Object.keys(messaging.transports).sort()).toEqual(['mail', 'sms']);
    expect(messaging.twilio).toEqual({
      authToken: TOKEN,
      statusCallbackUrl: 'https://oripa.example.jp/api/webhooks/twilio/status',
    });
    void messaging.close();
    expect(
      loadConfig({
        ...base,
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_MESSAGING_SERVICE_SID: `MG${'1'.repeat(32)}`,
      }).TWILIO_MESSAGING_SERVICE_SID,
    ).toBe(`MG${'1'.repeat(32)}`);
    expect(
      loadConfig({ ...base, SMTP_URL: 'smtps://mail.example.jp', MAIL_FROM: 'no-reply@example.jp' }).SMTP_URL,
    ).toBe('smtps://mail.example.jp');
  });

  it.each([
    [{ SMTP_URL: 'smtp://u:p@mail.example.jp:587' }, 'MAIL_FROM: needed with SMTP_URL'],
    [{ MAIL_FROM: 'no-reply@example.jp' }, 'SMTP_URL: needed with MAIL_FROM'],
    [{ TWILIO_ACCOUNT_SID: SID }, 'TWILIO_AUTH_TOKEN: needed'],
    [{ TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+815012345678' }, 'TWILIO_ACCOUNT_SID: needed'],
    [{ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN }, 'TWILIO_FROM: set the sending number'],
    [
      {
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: '+815012345678',
        TWILIO_MESSAGING_SERVICE_SID: `MG${'1'.repeat(32)}`,
      },
      'TWILIO_MESSAGING_SERVICE_SID: set either it or TWILIO_FROM',
    ],
    [{ SMTP_URL: 'http://mail.example.jp', MAIL_FROM: 'a@b.jp' }, 'SMTP_URL="http://mail.example.jp"'],
    [{ SMTP_URL: 'smtp://mail.example.jp', MAIL_FROM: 'no address' }, 'MAIL_FROM="no address"'],
    [{ TWILIO_ACCOUNT_SID: 'AC123' }, 'TWILIO_ACCOUNT_SID="AC123"'],
    [{ TWILIO_FROM: '09012345678' }, 'TWILIO_FROM="09012345678"'],
    [{ OUTBOX_RETENTION_DAYS: '0' }, 'OUTBOX_RETENTION_DAYS="0"'],
  ])('refuses %o and names the setting', (env, named) => {
    expect(refusal(env)).toContain(named);
  });
});

describe('messaging helpers', () => {
  it('picks the links out of a message text', () => {
    expect(linksOf('▼確認する\nhttps://a.example.jp/x?y=1&z=2\n（https://b.example.jp）')).toEqual([
      'https://a.example.jp/x?y=1&z=2',
      'https://b.example.jp',
    ]);
    expect(linksOf(null)).toEqual([]);
  });

  it('tells a browser on this machine from anyone else', () => {
    const local = { host: 'localhost:3000', 'x-shop-client-ip': '127.0.0.1' };
    expect(fromThisMachine(new Headers(local))).toBe(true);
    expect(fromThisMachine(new Headers({ ...local, 'x-shop-client-ip': '::1' }))).toBe(true);
    expect(fromThisMachine(new Headers({ ...local, 'x-shop-client-ip': '10.0.0.2' }))).toBe(false);
    expect(fromThisMachine(new Headers({ ...local, host: 'oripa.example.jp' }))).toBe(false);
    expect(fromThisMachine(new Headers({ ...local, forwarded: 'for=1.2.3.4' }))).toBe(false);
    expect(fromThisMachine(new Headers({ host: 'localhost:3000' }))).toBe(false);
  });
});
