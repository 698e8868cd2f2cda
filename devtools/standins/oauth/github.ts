// GitHub OAuth app stand-in: github.com/login/oauth/{authorize,access_token}, api.github.com/user and
// /user/emails, in the shapes better-auth's github provider reads (id, login, name, email, avatar_url;
// emails with primary and verified).
import { nextId, startOAuth2Standin, type OAuth2StandinOptions } from './oauth2';
import type { OAuthStandin } from './types';

/** @example const github = await startGitHubStandin({ clientId: 'Iv1.test', clientSecret: 'secret' }) */
export function startGitHubStandin(options: OAuth2StandinOptions): Promise<OAuthStandin> {
  return startOAuth2Standin(
    {
      provider: 'github',
      title: 'GitHubでログイン',
      authorizePath: '/login/oauth/authorize',
      tokenPath: '/login/oauth/access_token',
      clientAuth: 'post',
      pkceRequired: false,
      scopeSeparator: ' ',
      newUser: () => {
        const id = nextId(8);
        return { id, login: `octo${id}`, name: `Octo ${id}`, email: `octo${id}@example.com`, emailVerified: true };
      },
      routes(app, _state, bearer) {
        app.get('/user', (c) => {
          const issued = bearer(c);
          if (!issued) return c.json({ message: 'Bad credentials' }, 401);
          const { user } = issued;
          return c.json({
            id: Number(user.id),
            login: user.login ?? `user${user.id}`,
            name: user.name || null,
            // The public email, which GitHub only allows to be a verified one; otherwise null.
            email: user.email && user.emailVerified ? user.email : null,
            avatar_url: user.picture ?? `https://avatars.githubusercontent.com/u/${user.id}`,
          });
        });
        app.get('/user/emails', (c) => {
          const issued = bearer(c);
          if (!issued) return c.json({ message: 'Bad credentials' }, 401);
          if (!issued.scopes.includes('user:email')) return c.json({ message: 'Not Found' }, 404);
          const { user } = issued;
          return c.json(
            user.email
              ? [{ email: user.email, primary: true, verified: user.emailVerified, visibility: 'private' }]
              : [],
          );
        });
      },
    },
    options,
  );
}
