// The Merpay stand-in's token endpoint (AuthClient::fetchAccessToken).
import type { Context } from 'hono';
import { token } from '#devtools/standins/shared';
import { basicCredentials, fail, SCOPE, StandinError } from './protocol';
import type { MerpayState } from './state';

/** POST /jp/v1/token: client credentials (Basic), form grant_type and scope → a bare access token. */
export async function issueToken(state: MerpayState, c: Context): Promise<Response> {
  const credentials = basicCredentials(c.req.header('authorization'));
  if (!credentials || credentials.id !== state.options.clientId || credentials.secret !== state.options.clientSecret) {
    return fail(c, new StandinError(401, 'UNAUTHENTICATED', 'Client authentication failed.'));
  }
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return fail(
      c,
      new StandinError(400, 'INVALID_ARGUMENT', 'The token request must be application/x-www-form-urlencoded.'),
    );
  }
  const form = new URLSearchParams(await c.req.text());
  if (form.get('grant_type') !== 'client_credentials')
    return fail(c, new StandinError(400, 'INVALID_ARGUMENT', 'grant_type must be client_credentials.'));
  if (!(form.get('scope') ?? '').split(' ').includes(SCOPE))
    return fail(c, new StandinError(403, 'PERMISSION_DENIED', `scope must include ${SCOPE}.`));
  const accessToken = token(48);
  state.tokens.set(accessToken, Date.now() + state.tokenTtlSec * 1000);
  state.tokensIssued += 1;
  return c.json({ access_token: accessToken, token_type: 'Bearer', expires_in: state.tokenTtlSec, scope: SCOPE });
}
