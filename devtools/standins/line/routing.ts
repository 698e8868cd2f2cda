// The LINE stand-in's routing: LINE Login v2.1's endpoints, one handler each.
import { decideAuthorization, showAuthorization } from './authorization';
import type { Route } from './state';
import { exchangeToken, userInfo, verifyAccessToken, verifyIdToken } from './tokens';

/** LINE Login v2.1's endpoints, one handler each. */
export const ROUTES: readonly Route[] = [
  { method: 'get', path: '/oauth2/v2.1/authorize', handle: showAuthorization },
  { method: 'post', path: '/oauth2/v2.1/authorize', handle: decideAuthorization },
  { method: 'post', path: '/oauth2/v2.1/token', handle: exchangeToken },
  { method: 'get', path: '/oauth2/v2.1/userinfo', handle: userInfo },
  { method: 'post', path: '/oauth2/v2.1/userinfo', handle: userInfo },
  { method: 'get', path: '/oauth2/v2.1/verify', handle: verifyAccessToken },
  { method: 'post', path: '/oauth2/v2.1/verify', handle: verifyIdToken },
];
