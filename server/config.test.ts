// Settings: defaults, and a bad value stops the start with a message naming the variable.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, ConfigError } from './config';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-config-'));
/** An https shop must name its address key (docs/decisions/019). */
const ADDRESS_KEYS = 'k1:' + Buffer.alloc(32, 1).toString('base64');

describe('loadConfig', () => {
  it('has working defaults for `npm start` and keeps a generated auth secret in DATA_DIR', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_ORIGIN).toBe('http://localhost:3000');
    expect(config.embeddedDatabase).toBe(true);
    expect(config.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).AUTH_SECRET).toBe(config.AUTH_SECRET);
    expect(fs.statSync(path.join(dir, 'auth-secret')).mode & 0o077).toBe(0);
  });

  it("turns the sandbox on only for a developer's own machine unless told, and checks provider keys", () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).paymentSandbox).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_ORIGIN: 'http://127.0.0.1:8080' }).paymentSandbox).toBe(true);
    expect(
      loadConfig({ DATA_DIR: dir, PUBLIC_ORIGIN: 'https://oripa.example.jp', ADDRESS_ENCRYPTION_KEYS: ADDRESS_KEYS })
        .paymentSandbox,
    ).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_ORIGIN: 'http://oripa.example.jp' }).paymentSandbox).toBe(false);
    expect(
      loadConfig({
        DATA_DIR: dir,
        PUBLIC_ORIGIN: 'https://oripa.example.jp',
        PAYMENT_SANDBOX: 'true',
        ADDRESS_ENCRYPTION_KEYS: ADDRESS_KEYS,
      }).paymentSandbox,
    ).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, PAYMENT_SANDBOX: 'false' }).paymentSandbox).toBe(false);
    expect(loadConfig({ DATA_DIR: dir }).PURCHASE_MONTHLY_CAP_JPY).toBe(500_000);
    expect(loadConfig({ DATA_DIR: dir }).MINOR_PURCHASE_MONTHLY_CAP_JPY).toBe(10_000);
    expect(() => loadConfig({ DATA_DIR: dir, STRIPE_SECRET_KEY: 'pk_live_nope' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ DATA_DIR: dir, AMAZONPAY_STORE_ID: 'store' })).toThrow(/AMAZONPAY_STORE_ID/);
    expect(() => loadConfig({ DATA_DIR: dir, LINE_CHANNEL_SECRET: 'short' })).toThrow(/LINE_CHANNEL_SECRET/);
    // Sign-in keys come in pairs: one alone names the missing one.
    expect(() => loadConfig({ DATA_DIR: dir, GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com' })).toThrow(
      /GOOGLE_CLIENT_SECRET: needs to be set with GOOGLE_CLIENT_ID/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, TWITTER_CLIENT_SECRET: 'secret' })).toThrow(/TWITTER_CLIENT_ID/);
    expect(loadConfig({ DATA_DIR: dir, GITHUB_CLIENT_ID: 'Iv1.x', GITHUB_CLIENT_SECRET: 's' }).GITHUB_CLIENT_ID).toBe(
      'Iv1.x',
    );
    expect(loadConfig({ DATA_DIR: dir }).REAUTH_MAX_AGE_MINUTES).toBe(10);
  });

  it('keeps the coin and prize periods, and refuses paid coins living past 180 days', () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect([defaults.PRIZE_DECISION_DAYS, defaults.PAID_COIN_EXPIRY_DAYS, defaults.FREE_COIN_EXPIRY_DAYS]).toEqual([
      14, 180, 90,
    ]);
    const custom = loadConfig({
      DATA_DIR: tempDir(),
      PRIZE_DECISION_DAYS: '7',
      PAID_COIN_EXPIRY_DAYS: '150',
      FREE_COIN_EXPIRY_DAYS: '30',
    });
    expect([custom.PRIZE_DECISION_DAYS, custom.PAID_COIN_EXPIRY_DAYS, custom.FREE_COIN_EXPIRY_DAYS]).toEqual([
      7, 150, 30,
    ]);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PAID_COIN_EXPIRY_DAYS: '181' })).toThrow(/PAID_COIN_EXPIRY_DAYS/);
  });

  it('reads the login bonus table (decision 033): amounts by streak day, "0" off, bad amounts stop the start', () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.LOGIN_BONUS_STREAK_COINS).toEqual([10, 10, 20, 20, 30, 30, 100]);
    expect(defaults.LOGIN_BONUS_AFTER_TABLE).toBe('repeat');
    const custom = loadConfig({
      DATA_DIR: tempDir(),
      LOGIN_BONUS_STREAK_COINS: ' 5, 50 ',
      LOGIN_BONUS_AFTER_TABLE: 'hold',
    });
    expect([custom.LOGIN_BONUS_STREAK_COINS, custom.LOGIN_BONUS_AFTER_TABLE]).toEqual([[5, 50], 'hold']);
    expect(loadConfig({ DATA_DIR: tempDir(), LOGIN_BONUS_STREAK_COINS: '0' }).LOGIN_BONUS_STREAK_COINS).toEqual([]);
    for (const bad of ['10,0', '10,,20', '-5', 'abc', '1.5'])
      expect(() => loadConfig({ DATA_DIR: tempDir(), LOGIN_BONUS_STREAK_COINS: bad }), bad).toThrow(
        /LOGIN_BONUS_STREAK_COINS/,
      );
    expect(() => loadConfig({ DATA_DIR: tempDir(), LOGIN_BONUS_AFTER_TABLE: 'loop' })).toThrow(
      /LOGIN_BONUS_AFTER_TABLE/,
    );
  });

  it('reads the route rules (ROUTE_REDIRECTS): a site path or an https URL per lower-case path; anything else stops the start', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).ROUTE_REDIRECTS).toEqual({});
    const rules = { '/lp/spring': 'https://campaign.example.jp/spring?x=1', '/old': '/gacha/pokemon' };
    expect(loadConfig({ DATA_DIR: tempDir(), ROUTE_REDIRECTS: JSON.stringify(rules) }).ROUTE_REDIRECTS).toEqual(rules);
    for (const bad of [
      'not json',
      '["/a"]',
      '{"/a": 1}',
      '{"/A": "/b"}',
      '{"/a/": "/b"}',
      '{"a": "/b"}',
      '{"/api/x": "/b"}',
      '{"/admin": "/b"}',
      '{"/a": "//evil.example"}',
      '{"/a": "javascript:alert(1)"}',
      '{"/a": "http://example.jp/"}',
      '{"/a": "https://user:pw@example.jp/"}',
    ])
      expect(() => loadConfig({ DATA_DIR: tempDir(), ROUTE_REDIRECTS: bad }), bad).toThrow(/ROUTE_REDIRECTS/);
  });

  it('reads the level and rank rewards (decision 037): rising thresholds, "0" off, six rank amounts', () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect([defaults.LEVEL_EXP_THRESHOLDS, defaults.LEVEL_REWARDS]).toEqual([undefined, undefined]);
    expect(defaults.RANK_UP_REWARDS).toEqual([0, 100, 300, 1000, 3000, 10000]);
    expect(defaults.PROGRESSION_REWARD_CLAIM_DAYS).toBe(30);
    const custom = loadConfig({ DATA_DIR: tempDir(), LEVEL_EXP_THRESHOLDS: '100, 300,900', LEVEL_REWARDS: '0' });
    expect([custom.LEVEL_EXP_THRESHOLDS, custom.LEVEL_REWARDS]).toEqual([[100, 300, 900], []]);
    for (const bad of ['300,100', '0,100', '100,100', 'abc'])
      expect(() => loadConfig({ DATA_DIR: tempDir(), LEVEL_EXP_THRESHOLDS: bad }), bad).toThrow(/LEVEL_EXP_THRESHOLDS/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), RANK_UP_REWARDS: '0,100,300' })).toThrow(/RANK_UP_REWARDS/);
  });

  it('migrates as DATABASE_MIGRATION_URL only on PostgreSQL (docs/decisions/010)', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).DATABASE_MIGRATION_URL).toBeUndefined();
    const both = loadConfig({
      DATA_DIR: tempDir(),
      DATABASE_URL: 'postgres://shop@db/oripa',
      DATABASE_MIGRATION_URL: 'postgres://owner@db/oripa',
    });
    expect([both.DATABASE_URL, both.DATABASE_MIGRATION_URL]).toEqual([
      'postgres://shop@db/oripa',
      'postgres://owner@db/oripa',
    ]);
    expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_MIGRATION_URL: 'postgres://owner@db/oripa' })).toThrow(
      /DATABASE_MIGRATION_URL/,
    );
    expect(() =>
      loadConfig({
        DATA_DIR: tempDir(),
        DATABASE_URL: 'postgres://shop@db/oripa',
        DATABASE_MIGRATION_URL: 'mysql://x',
      }),
    ).toThrow(/DATABASE_MIGRATION_URL/);
  });

  it('listens on DATABASE_SESSION_URL only on PostgreSQL, unset by default (docs/decisions/074)', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://shop@db/oripa' }).DATABASE_SESSION_URL).toBe(
      undefined,
    );
    const pooled = loadConfig({
      DATA_DIR: tempDir(),
      DATABASE_URL: 'postgres://shop@pool/oripa',
      DATABASE_SESSION_URL: 'postgres://shop@pool/oripa_session',
    });
    expect(pooled.DATABASE_SESSION_URL).toBe('postgres://shop@pool/oripa_session');
    expect(() =>
      loadConfig({ DATA_DIR: tempDir(), DATABASE_SESSION_URL: 'postgres://shop@pool/oripa_session' }),
    ).toThrow(/DATABASE_SESSION_URL: needs DATABASE_URL/);
  });

  it('makes the roles at start from both role URLs, on their database, never printing the admin URL (decision 073)', () => {
    const shop = 'postgres://oripa_shop:shop-password-0123456789@db/oripa';
    const owner = 'postgres://oripa_owner:owner-password-0123456789@db/oripa';
    const admin = 'postgres://postgres:super-secret-password@db/oripa';
    const base = { DATA_DIR: tempDir(), DATABASE_URL: shop, DATABASE_MIGRATION_URL: owner };
    expect(loadConfig({ ...base, DATABASE_ADMIN_URL: admin }).DATABASE_ADMIN_URL).toBe(admin);
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tempDir(), ...env });
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal({ DATABASE_URL: shop, DATABASE_ADMIN_URL: admin })).toMatch(
      /DATABASE_ADMIN_URL: needs DATABASE_URL \(the shop role\) and DATABASE_MIGRATION_URL/,
    );
    expect(refusal({ ...base, DATABASE_MIGRATION_URL: shop, DATABASE_ADMIN_URL: admin })).toMatch(
      /must name two different roles/,
    );
    expect(
      refusal({ ...base, DATABASE_URL: 'postgres://oripa_shop:short@db/oripa', DATABASE_ADMIN_URL: admin }),
    ).toMatch(/password of at least 16 characters/);
    expect(refusal({ ...base, DATABASE_ADMIN_URL: 'postgres://postgres:x@db/postgres' })).toMatch(
      /must name the same database as DATABASE_MIGRATION_URL/,
    );
    // A superuser's password is never shown, even when its own value is the problem.
    const wrong = refusal({ ...base, DATABASE_ADMIN_URL: 'mysql://postgres:super-secret-password@db/oripa' });
    expect(wrong).toMatch(/DATABASE_ADMIN_URL=\(hidden\)/);
    expect(wrong).not.toContain('super-secret-password');
  });

  it('takes Turnstile with both keys or neither, and its stand-in only in the sandbox; Redis by URL', () => {
    const keys = { TURNSTILE_SITE_KEY: '0x4AAAAAAAsite', TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret' };
    const https = {
      DATA_DIR: tempDir(),
      PUBLIC_ORIGIN: 'https://oripa.example.jp',
      AUTH_SECRET: 'x'.repeat(40),
      ADDRESS_ENCRYPTION_KEYS: ADDRESS_KEYS,
    };
    expect(loadConfig(https).turnstile).toBeUndefined();
    expect(loadConfig({ ...https, ...keys }).turnstile).toEqual({
      siteKey: '0x4AAAAAAAsite',
      secretKey: '0x4AAAAAAAsecret',
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    });
    expect(() => loadConfig({ ...https, TURNSTILE_SITE_KEY: '0x4AAAAAAAsite' })).toThrow(/set both/);
    const standin = { TURNSTILE_VERIFY_URL: 'http://127.0.0.1:4567/turnstile/v0/siteverify' };
    expect(() => loadConfig({ ...https, ...keys, ...standin })).toThrow(/TURNSTILE_VERIFY_URL/);
    expect(loadConfig({ DATA_DIR: tempDir(), ...keys, ...standin }).turnstile).toMatchObject({
      verifyUrl: 'http://127.0.0.1:4567/turnstile/v0/siteverify',
      scriptUrl: 'http://127.0.0.1:4567/turnstile/v0/api.js',
    });
    expect(loadConfig({ ...https, REDIS_URL: 'redis://cache:6379/0' }).REDIS_URL).toBe('redis://cache:6379/0');
    expect(() => loadConfig({ ...https, REDIS_URL: 'http://cache' })).toThrow(/REDIS_URL=/);
    expect(loadConfig(https)).toMatchObject({
      CAPTCHA_AFTER_FAILURES: 3,
      SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES: 20,
    });
  });

  it('reads the address keys (the first seals), generates one into DATA_DIR when unset, and wants them on https', () => {
    const dir = tempDir();
    const generated = loadConfig({ DATA_DIR: dir }).addressKeyring;
    expect(generated).toHaveLength(1);
    expect(generated[0]!.id).toBe('local');
    expect(generated[0]!.secret).toHaveLength(32);
    expect(loadConfig({ DATA_DIR: dir }).addressKeyring[0]!.secret.equals(generated[0]!.secret)).toBe(true);
    expect(fs.statSync(path.join(dir, 'address-keys')).mode & 0o077).toBe(0);
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const keys = loadConfig({
      DATA_DIR: tempDir(),
      ADDRESS_ENCRYPTION_KEYS: `k2:${k2}, ${ADDRESS_KEYS}`,
    }).addressKeyring;
    expect(keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(keys[0]!.secret.equals(Buffer.alloc(32, 2))).toBe(true);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PUBLIC_ORIGIN: 'https://oripa.example.jp' })).toThrow(
      /ADDRESS_ENCRYPTION_KEYS: required on an https shop/,
    );
    for (const bad of [
      `k2:${k2.slice(0, 20)}`,
      `k2:${k2},k2:${k2}`,
      `k 2:${k2}`,
      k2,
      `k2:${Buffer.alloc(16, 2).toString('base64')}`,
    ]) {
      let message = '';
      try {
        loadConfig({ DATA_DIR: tempDir(), ADDRESS_ENCRYPTION_KEYS: bad });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/ADDRESS_ENCRYPTION_KEYS=\(hidden\)/);
      // The refusal names the setting, never its key material.
      expect(message).not.toContain(k2.slice(0, 20));
    }
  });

  it('takes content from the built-in store unless Prismic is named, and wants its repository then', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).CONTENT_SOURCE).toBe('builtin');
    const prismic = loadConfig({
      DATA_DIR: tempDir(),
      CONTENT_SOURCE: 'prismic',
      PRISMIC_REPOSITORY: 'stella-shop',
      PRISMIC_ACCESS_TOKEN: 'MC5aVGVzdA.secret-token',
    });
    expect([prismic.CONTENT_SOURCE, prismic.PRISMIC_REPOSITORY]).toEqual(['prismic', 'stella-shop']);
    for (const repository of ['https://stella-shop.cdn.prismic.io/api/v2', 'http://127.0.0.1:4100/api/v2'])
      expect(loadConfig({ DATA_DIR: tempDir(), PRISMIC_REPOSITORY: repository }).PRISMIC_REPOSITORY).toBe(repository);
    expect(() => loadConfig({ DATA_DIR: tempDir(), CONTENT_SOURCE: 'prismic' })).toThrow(
      /PRISMIC_REPOSITORY: required with CONTENT_SOURCE=prismic/,
    );
    for (const bad of [
      'Stella Shop',
      'http://cms.example.com/api/v2',
      'https://stella-shop.prismic.io/',
      'ftp://x/api/v2',
    ])
      expect(() => loadConfig({ DATA_DIR: tempDir(), PRISMIC_REPOSITORY: bad }), bad).toThrow(/PRISMIC_REPOSITORY=/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PRISMIC_ACCESS_TOKEN: 'has space inside' })).toThrow(
      /PRISMIC_ACCESS_TOKEN=\(hidden\)/,
    );
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: tempDir(),
      DATABASE_URL: 'postgres://u@db:5432/shop',
      PUBLIC_ORIGIN: 'https://oripa.example.jp/',
      SITE_NAME: 'テスト',
      SITE_TAGLINE: 'テストの店',
      AUTH_SECRET: 'x'.repeat(40),
      ADDRESS_ENCRYPTION_KEYS: ADDRESS_KEYS,
      DEMO_DATA: 'false',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      embeddedDatabase: false,
      PUBLIC_ORIGIN: 'https://oripa.example.jp',
      httpsOrigin: true,
      SITE_NAME: 'テスト',
      DEMO_DATA: false,
      TRUST_PROXY: true,
      AUTH_SECRET: 'x'.repeat(40),
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_ORIGIN: 'not a url' }, 'PUBLIC_ORIGIN'],
    [{ PUBLIC_ORIGIN: 'https://shop.example/path' }, 'PUBLIC_ORIGIN'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ DEMO_DATA: 'maybe' }, 'DEMO_DATA'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('refuses %o and names %s', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(new RegExp(`${name}=`));
  });
});
