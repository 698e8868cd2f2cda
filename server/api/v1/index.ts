// The JSON API under /api/v1: every operation module's operations, openapi.json and the reference page.
// Mounted in server/app.ts with app.route('/api/v1', createApiV1(services)).
import { Hono } from 'hono';
import { z } from 'zod';
import { apiError, unexpectedErrorAnswer } from '#server/api-error';
import type { ShopServices } from '#server/services';
import { defineOperation, mountOperations, type ApiEnv, type ApiOperation } from './registry';
import { buildOpenApiDocument, renderReferencePage, type OpenApiDocument } from './openapi';
import { catalogueOperations } from './catalogue';
import { drawOperations } from './draws';
import { waitingRoomOperations } from './waiting-room';
import { walletOperations } from './wallet';
import { prizeOperations } from './prizes';
import { purchaseOperations } from './purchases';
import { identityOperations } from './identity';
import { addressOperations } from './addresses';
import { shippingRequestOperations } from './shipping-requests';
import { promoCodeOperations } from './promo-codes';
import { loginBonusOperations } from './login-bonus';
import { mailOperations } from './mails';
import { progressionOperations } from './progression';
import { invitationOperations } from './invitations';
import { limitsOperations } from './limits';
import { winnerOperations } from './winners';
import { drawLogOperations } from './draw-log';
import { farmOperations } from './farm';

export { defineOperation, apiSchema, type ApiOperation } from './registry';
export { ApiError } from './http';

/**
 * The operation modules of the API, in the order of the reference. A new module (draws, wallet,
 * prizes…) exports a list of defineOperation results and is added here.
 */
export const API_V1_OPERATION_MODULES: readonly (readonly ApiOperation[])[] = [
  catalogueOperations,
  drawOperations,
  waitingRoomOperations,
  walletOperations,
  prizeOperations,
  purchaseOperations,
  identityOperations,
  addressOperations,
  shippingRequestOperations,
  promoCodeOperations,
  loginBonusOperations,
  mailOperations,
  progressionOperations,
  invitationOperations,
  limitsOperations,
  winnerOperations,
  drawLogOperations,
  farmOperations,
];

export const API_V1_VERSION = '1.0.0';

export interface ApiV1Options {
  /** Replaces API_V1_OPERATION_MODULES (tests). */
  modules?: readonly (readonly ApiOperation[])[];
  /** Mounted after the modules' operations (tests, or a module not in the list yet). */
  extraOperations?: readonly ApiOperation[];
}

/** @example app.route('/api/v1', createApiV1(services)) */
export function createApiV1(services: ShopServices, options: ApiV1Options = {}) {
  const app = new Hono<ApiEnv>();
  // Mounted in the shop the request id is set already; alone (tests) it is made here.
  app.use(async (c, next) => {
    if (!c.get('requestId')) c.set('requestId', crypto.randomUUID());
    return next();
  });
  app.onError((error, c) => {
    return unexpectedErrorAnswer(c, error, services.logger);
  });

  let document: OpenApiDocument | undefined;
  let page: string | undefined;
  const openApiDocument = (): OpenApiDocument =>
    (document ??= buildOpenApiDocument(operations, {
      title: `${services.config.SITE_NAME} API`,
      version: API_V1_VERSION,
      description:
        'ウェブ・ネイティブアプリ・運営ツールが使うJSON API。エラーの本文は常に { error: { code, message, details } } です。',
      serverUrl: `${services.config.PUBLIC_ORIGIN}/api/v1`,
    }));

  const getOpenApiDocument: ApiOperation = defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/openapi.json',
    summary: 'このAPIの説明（OpenAPI 3.1）',
    tags: ['meta'],
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 の文書', schema: z.record(z.string(), z.unknown()) } },
    handler: ({ c }) => {
      c.header('Cache-Control', 'no-cache');
      return c.json(openApiDocument());
    },
  });

  const operations: ApiOperation[] = [
    ...(options.modules ?? API_V1_OPERATION_MODULES).flat(),
    ...(options.extraOperations ?? []),
    getOpenApiDocument,
  ];
  mountOperations(app, operations, services);

  app.get('/docs', (c) => {
    page ??= renderReferencePage(openApiDocument());
    c.header('Cache-Control', 'no-cache');
    return c.html(page);
  });
  app.all('*', (c) => apiError(c, 404, 'NOT_FOUND', 'APIが見つかりません。'));
  return app;
}
