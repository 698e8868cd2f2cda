// deploy/'s templates filled in: the same files serve the local topology (its loopback ports and work
// folder) and a deployment on several machines (`npm run topology -- render <settings> <folder>`).
// A template names a value as {{NAME}}; a line holding {{@LIST}} is written once per comma-separated
// element of LIST, with {{#}} its number from 1 (haproxy's server lines).
import fs from 'node:fs';
import path from 'node:path';
import { projectRootOf } from '#db/project-root';

export const projectRoot = projectRootOf(import.meta.url);

/** Each template and the name of the file it renders to. */
export const TEMPLATES = [
  { template: 'deploy/haproxy/haproxy.cfg', output: 'haproxy.cfg' },
  { template: 'deploy/haproxy/postgres-primary.cfg', output: 'postgres-primary.cfg' },
  { template: 'deploy/pgbouncer/pgbouncer.ini', output: 'pgbouncer.ini' },
  { template: 'deploy/postgres/postgresql.shop.conf', output: 'postgresql.shop.conf' },
  { template: 'deploy/shop.env.example', output: 'shop.env' },
] as const;

/** The folder of a rendering that holds haproxy's error answers (deploy/haproxy/errors). */
export const ERRORS_FOLDER = 'haproxy-errors';

/** Values a deployment may leave empty: no mail server (mail is held), pgbouncer logging to its stderr. */
const MAY_BE_EMPTY = new Set(['SMTP_URL', 'MAIL_FROM', 'PGBOUNCER_LOGFILE', 'PGBOUNCER_PIDFILE']);

const PLACEHOLDER = /\{\{(#|@?[A-Z][A-Z0-9_]*)\}\}/g;

/**
 * One template filled from `values`; a missing value stops with the template's name and the value's.
 * @example renderTemplate('server shop{{#}} {{@SHOP_INSTANCES}} check', { SHOP_INSTANCES: 'a:1,b:2' }, 'haproxy.cfg')
 */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>, name: string): string {
  const valueOf = (key: string) => {
    if (key === '#') throw new Error(`${name}: {{#}} outside a {{@LIST}} line`);
    const value = values[key];
    if (value === undefined || (value === '' && !MAY_BE_EMPTY.has(key)))
      throw new Error(`${name}: no value for ${key} (set ${key}=… in the settings)`);
    return value;
  };
  return text
    .split('\n')
    .flatMap((line) => {
      const list = /\{\{@([A-Z][A-Z0-9_]*)\}\}/.exec(line)?.[1];
      if (!list) return [line.replace(PLACEHOLDER, (_, key: string) => valueOf(key))];
      const items = valueOf(list)
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      return items.map((item, index) =>
        line.replace(PLACEHOLDER, (_, key: string) =>
          key === '#' ? String(index + 1) : key === `@${list}` ? item : valueOf(key.replace(/^@/, '')),
        ),
      );
    })
    .join('\n');
}

/**
 * `KEY=value` lines (# comments, blank lines; the value is everything after the first `=`), as in an
 * environment file and deploy/topology.env.example.
 * @example parseSettings('PORT=3000\n# a comment\nMAIL_FROM=Shop <a@b.jp>') // { PORT: '3000', MAIL_FROM: 'Shop <a@b.jp>' }
 */
export function parseSettings(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw new Error(`not a KEY=value line: ${JSON.stringify(trimmed)}`);
    values[trimmed.slice(0, equals).trim()] = trimmed.slice(equals + 1).trim();
  }
  return values;
}

/**
 * Renders every template into `folder` (created; files mode 600: shop.env holds secrets). Answers the
 * files written.
 * @example renderDeployment(parseSettings(fs.readFileSync('topology.env', 'utf8')), '/tmp/oripa-config')
 */
export function renderDeployment(values: Readonly<Record<string, string>>, folder: string): string[] {
  fs.mkdirSync(folder, { recursive: true });
  const rendered = TEMPLATES.map(({ template, output }) => {
    const text = fs.readFileSync(path.join(projectRoot, template), 'utf8');
    const file = path.join(folder, output);
    fs.writeFileSync(file, renderTemplate(text, values, template), { mode: 0o600 });
    return file;
  });
  // haproxy's own error answers (503 with Retry-After), copied as they are: HAPROXY_ERRORS_DIR names where
  // the load balancer finds them.
  const errors = path.join(folder, ERRORS_FOLDER);
  fs.mkdirSync(errors, { recursive: true });
  const copied = fs
    .readdirSync(path.join(projectRoot, 'deploy', 'haproxy', 'errors'))
    .filter((name) => name.endsWith('.http'))
    .map((name) => {
      const file = path.join(errors, name);
      fs.copyFileSync(path.join(projectRoot, 'deploy', 'haproxy', 'errors', name), file);
      return file;
    });
  return [...rendered, ...copied];
}
