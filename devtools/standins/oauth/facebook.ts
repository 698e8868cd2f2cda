// Facebook Login stand-in: www.facebook.com/v24.0/dialog/oauth, graph.facebook.com/v24.0/oauth/access_token,
// /debug_token (the app access token `appId|appSecret`) and /me?fields=id,name,email,picture, as
// better-auth's facebook provider reads them. Facebook says nothing about whether the email is verified.
import { nextId, startOAuth2Standin, type OAuth2StandinOptions } from './oauth2';
import type { OAuthStandin } from './types';

/** @example const facebook = await startFacebookStandin({ clientId: '1234567890', clientSecret: 'secret' }) */
export function startFacebookStandin(options: OAuth2StandinOptions): Promise<OAuthStandin> {
  return startOAuth2Standin(
    {
      provider: 'facebook',
      title: 'Facebookでログイン',
      authorizePath: '/v24.0/dialog/oauth',
      tokenPath: '/v24.0/oauth/access_token',
      clientAuth: 'post',
      pkceRequired: false,
      scopeSeparator: ' ',
      newUser: () => {
        const id = nextId(15);
        return { id, name: `Facebook User ${id.slice(-4)}`, email: `fb${id}@example.com`, emailVerified: false };
      },
      routes(app, state, bearer) {
        app.get('/debug_token', (c) => {
          if (c.req.query('access_token') !== `${state.options.clientId}|${state.options.clientSecret}`)
            return c.json(
              { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } },
              400,
            );
          const inspected = state.tokens.get(c.req.query('input_token') ?? '');
          return c.json({
            data: inspected
              ? {
                  app_id: state.options.clientId,
                  type: 'USER',
                  is_valid: inspected.expiresAt > Date.now(),
                  user_id: inspected.user.id,
                  scopes: inspected.scopes,
                }
              : { is_valid: false },
          });
        });
        app.get('/me', (c) => {
          const issued = bearer(c);
          if (!issued)
            return c.json(
              { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } },
              400,
            );
          const { user } = issued;
          const fields = new Set((c.req.query('fields') ?? 'id,name').split(','));
          return c.json({
            id: user.id,
            ...(fields.has('name') ? { name: user.name } : {}),
            ...(fields.has('email') && user.email && issued.scopes.includes('email') ? { email: user.email } : {}),
            ...(fields.has('picture')
              ? {
                  picture: {
                    data: {
                      url: user.picture ?? `https://platform-lookaside.fbsbx.com/standin/${user.id}`,
                      is_silhouette: !user.picture,
                    },
                  },
                }
              : {}),
          });
        });
      },
    },
    options,
  );
}
