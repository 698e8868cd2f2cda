// deploy/'s templates: a value per {{NAME}}, a line per element of a {{@LIST}}, a clear stop on a missing
// value; deploy/topology.env.example names every value the templates use, and the local topology's values
// fill them all.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { localValues, newSecrets, portsFrom } from './layout';
import { ERRORS_FOLDER, parseSettings, projectRoot, renderDeployment, renderTemplate, TEMPLATES } from './render';
import { hasProgram } from './processes';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});
const freshFolder = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-render-'));
  folders.push(folder);
  return folder;
};

describe('renderTemplate', () => {
  it('fills values and writes a list line once per element, numbered', () => {
    const text = 'bind {{SHOP_BIND}}\n    server shop{{#}} {{@SHOP_INSTANCES}} check\nend';
    expect(renderTemplate(text, { SHOP_BIND: ':443', SHOP_INSTANCES: '10.0.1.11:3000, 10.0.1.12:3000' }, 't')).toBe(
      'bind :443\n    server shop1 10.0.1.11:3000 check\n    server shop2 10.0.1.12:3000 check\nend',
    );
  });

  it('stops at a missing or empty value, naming it and the template, except where empty is allowed', () => {
    expect(() => renderTemplate('x={{DB_NAME}}', {}, 'deploy/shop.env.example')).toThrow(
      'deploy/shop.env.example: no value for DB_NAME',
    );
    expect(() => renderTemplate('x={{DB_NAME}}', { DB_NAME: '' }, 't')).toThrow(/DB_NAME/);
    expect(renderTemplate('SMTP_URL={{SMTP_URL}}', { SMTP_URL: '' }, 't')).toBe('SMTP_URL=');
    expect(() => renderTemplate('n={{#}}', {}, 't')).toThrow(/outside a \{\{@LIST\}\} line/);
  });

  it('leaves prose braces alone', () => {
    expect(renderTemplate('# fills the {{…}}', {}, 't')).toBe('# fills the {{…}}');
  });
});

describe('parseSettings', () => {
  it('reads KEY=value lines, the value being everything after the first =', () => {
    expect(parseSettings('# a comment\n\nPORT=3000\nMAIL_FROM=Shop <a@b.jp>\nURL=postgres://a:b=c@h/d\n')).toEqual({
      PORT: '3000',
      MAIL_FROM: 'Shop <a@b.jp>',
      URL: 'postgres://a:b=c@h/d',
    });
    expect(() => parseSettings('not a setting')).toThrow(/KEY=value/);
  });
});

describe('deploy/', () => {
  const used = (text: string) => [...text.matchAll(/\{\{@?([A-Z][A-Z0-9_]*)\}\}/g)].map((m) => m[1]!);
  const everyName = [
    ...new Set(TEMPLATES.flatMap(({ template }) => used(fs.readFileSync(path.join(projectRoot, template), 'utf8')))),
  ].sort();

  it('topology.env.example names every value a template uses, and renders every file once filled', () => {
    const example = parseSettings(fs.readFileSync(path.join(projectRoot, 'deploy', 'topology.env.example'), 'utf8'));
    expect(everyName.filter((name) => !(name in example))).toEqual([]);
    const filled = Object.fromEntries(Object.entries(example).map(([key, value]) => [key, value || `<${key}>`]));
    const written = renderDeployment(filled, freshFolder());
    expect(written.map((file) => path.basename(file))).toEqual([
      ...TEMPLATES.map((t) => t.output),
      '503-api.http',
      '503-page.http',
    ]);
    for (const file of written) expect(fs.readFileSync(file, 'utf8')).not.toMatch(/\{\{[#@A-Z]/);
    const haproxy = fs.readFileSync(written[0]!, 'utf8');
    expect(haproxy.match(/^ {4}server shop\d .* check$/gm)).toHaveLength(3);
    // /api/ has its twin backend: the same three instances, following the first backend's checks.
    expect(haproxy.match(/^ {4}server shop(\d) \S+ track shop_instances\/shop\1$/gm)).toHaveLength(3);
    expect(haproxy).toContain('errorfile 502 /etc/haproxy/errors/503-api.http');
  });

  it.skipIf(!hasProgram('haproxy'))(
    'haproxy accepts the local rendering, and its own errors are 503s with Retry-After',
    () => {
      const folder = freshFolder();
      const values = localValues({
        dir: path.dirname(folder),
        ports: portsFrom(7400),
        secrets: newSecrets(),
        demoData: false,
        logLevel: 'warn',
        shopSettings: {},
      });
      renderDeployment({ ...values, HAPROXY_ERRORS_DIR: path.join(folder, ERRORS_FOLDER) }, folder);
      const checked = spawnSync('haproxy', ['-c', '-f', path.join(folder, 'haproxy.cfg')], { encoding: 'utf8' });
      expect(checked.status, checked.stdout + checked.stderr).toBe(0);
      for (const name of ['503-api.http', '503-page.http']) {
        const answer = fs.readFileSync(path.join(folder, ERRORS_FOLDER, name), 'utf8');
        expect(answer).toMatch(/^HTTP\/1\.1 503 /);
        expect(answer).toMatch(/^Retry-After: \d+$/m);
      }
      const api = fs.readFileSync(path.join(folder, ERRORS_FOLDER, '503-api.http'), 'utf8');
      expect(JSON.parse(api.slice(api.indexOf('\n\n') + 2))).toMatchObject({ error: { code: 'SERVICE_BUSY' } });
    },
  );

  it('the local topology’s values fill every template', () => {
    const values = localValues({
      dir: '/tmp/oripa-topology',
      ports: portsFrom(7400),
      secrets: newSecrets(),
      demoData: false,
      logLevel: 'warn',
      shopSettings: {},
    });
    expect(everyName.filter((name) => !(name in values))).toEqual([]);
    const env = parseSettings(
      fs.readFileSync(
        renderDeployment(values, freshFolder()).find((f) => f.endsWith('shop.env'))!,
        'utf8',
      ),
    );
    expect(env).toMatchObject({
      PUBLIC_ORIGIN: 'http://localhost:7400',
      TRUST_PROXY: 'true',
      DATABASE_URL: expect.stringMatching(/^postgres:\/\/oripa_shop:[^@]+@127\.0\.0\.1:7405\/shop$/),
      DATABASE_SESSION_URL: expect.stringMatching(/@127\.0\.0\.1:7405\/shop_session$/),
      DATABASE_MIGRATION_URL: expect.stringMatching(/^postgres:\/\/oripa_owner:[^@]+@127\.0\.0\.1:7405\/shop$/),
      REDIS_URL: 'redis://127.0.0.1:7406',
    });
  });
});
