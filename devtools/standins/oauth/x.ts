// X (Twitter) OAuth 2.0 stand-in: x.com/i/oauth2/authorize (PKCE required), api.x.com/2/oauth2/token
// (client_secret_basic), api.x.com/2/users/me with user.fields=profile_image_url or confirmed_email,
// as better-auth's twitter provider reads them.
import { nextId, startOAuth2Standin, type OAuth2StandinOptions } from './oauth2';
import type { OAuthStandin } from './types';

/** @example const x = await startXStandin({ clientId: 'x-client', clientSecret: 'secret' }) */
export function startXStandin(options: OAuth2StandinOptions): Promise<OAuthStandin> {
  return startOAuth2Standin(
    {
      provider: 'twitter',
      title: 'Xでログイン',
      authorizePath: '/i/oauth2/authorize',
      tokenPath: '/2/oauth2/token',
      clientAuth: 'basic',
      pkceRequired: true,
      scopeSeparator: ' ',
      newUser: () => {
        const id = nextId(18);
        return {
          id,
          login: `x_${id.slice(-6)}`,
          name: `X User ${id.slice(-4)}`,
          email: `x${id}@example.com`,
          emailVerified: true,
        };
      },
      routes(app, _state, bearer) {
        app.get('/2/users/me', (c) => {
          const issued = bearer(c);
          if (!issued)
            return c.json({ title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }, 401);
          const { user } = issued;
          const fields = new Set((c.req.query('user.fields') ?? '').split(',').filter(Boolean));
          const data: Record<string, unknown> = {
            id: user.id,
            name: user.name,
            username: user.login ?? `user${user.id}`,
          };
          if (fields.has('profile_image_url'))
            data.profile_image_url =
              user.picture ?? `https://pbs.twimg.com/profile_images/${user.id}/standin_normal.jpg`;
          if (fields.has('confirmed_email')) {
            if (!issued.scopes.includes('users.email'))
              return c.json({ title: 'Forbidden', status: 403, detail: 'users.email scope required' }, 403);
            // X answers only a confirmed address.
            if (user.email && user.emailVerified) data.confirmed_email = user.email;
          }
          return c.json({ data });
        });
      },
    },
    options,
  );
}
