// Content's settings (decision 065): where pages, special pages, banners and notices come from.
import { z } from 'zod';
import { declareSettings, isLoopbackHost } from '#modules/kernel';

/**
 * A Prismic repository name, or its document API endpoint: https, or http on this machine (a stand-in).
 * @example isPrismicRepository('stella-shop') // true; isPrismicRepository('http://example.com/api/v2') // false
 */
function isPrismicRepository(value: string): boolean {
  if (/^[a-z0-9][a-z0-9-]{0,62}$/.test(value)) return true;
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) &&
    /\/api\/v2\/?$/.test(url.pathname) &&
    !url.search &&
    !url.username
  );
}

export const contentSettings = declareSettings({
  title: 'Content',
  shape: {
    /** Where pages, special pages, banners and notices come from (docs/decisions/041): the built-in store or Prismic. */
    CONTENT_SOURCE: z.enum(['builtin', 'prismic']).default('builtin'),
    /** The Prismic repository: its name (stella-shop) or its document API endpoint (https://stella-shop.cdn.prismic.io/api/v2). */
    PRISMIC_REPOSITORY: z
      .string()
      .refine(
        isPrismicRepository,
        'must be a Prismic repository name (e.g. stella-shop) or its https://…/api/v2 endpoint',
      )
      .optional(),
    /** A permanent access token of the repository's Content API (needed when the API is private). */
    PRISMIC_ACCESS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{8,2000}$/, 'must be the access token from the repository’s API & Security settings')
      .optional(),
  },
  docs: {
    CONTENT_SOURCE: {
      meaning:
        "where pages, special pages, banners and notices come from: `builtin` (the shop's own store, edited in " +
        '`/admin`) or `prismic` (the headless CMS, `docs/prismic/README.md`, decision 041)',
    },
    PRISMIC_REPOSITORY: {
      meaning:
        'with `CONTENT_SOURCE=prismic` (required then): the repository name (`stella-shop`) or its document API ' +
        'endpoint (`https://stella-shop.cdn.prismic.io/api/v2`; `http://` only on this machine, for the stand-in). ' +
        'Pages are served from the last good copy, kept in `DATA_DIR/cache/prismic-content.json`',
    },
    PRISMIC_ACCESS_TOKEN: {
      secret: true,
      meaning:
        "the repository's permanent Content API token, when its API is private; a secret (never printed in a " +
        'configuration error)',
    },
  },
  problems: (values) =>
    values.CONTENT_SOURCE === 'prismic' && !values.PRISMIC_REPOSITORY
      ? [
          'PRISMIC_REPOSITORY: required with CONTENT_SOURCE=prismic (the repository name, e.g. stella-shop, or its https://…/api/v2 endpoint; docs/prismic/README.md)',
        ]
      : [],
});
