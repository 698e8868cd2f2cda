// Amazon Pay's Node SDK (CommonJS, no type declarations), typed for the parts used here, with the transport's
// base URL chosen by us (why: the header of amazonpay.ts).
import { createRequire } from 'node:module';

interface SdkConfig {
  publicKeyId: string;
  privateKey: string | Buffer;
  region: string;
  sandbox?: boolean;
  algorithm?: string;
}
type SdkHeaders = Record<string, string>;
interface SdkRequest {
  method: string;
  urlFragment: string;
  payload?: unknown;
  headers?: SdkHeaders | null;
  queryParams?: Record<string, string> | null;
}
export interface SdkResponse {
  status: number;
  data: unknown;
}
interface SdkWebStoreClient {
  readonly configArgs: Readonly<SdkConfig>;
  apiCall(options: SdkRequest, maxRedirects?: number): Promise<SdkResponse>;
  createCheckoutSession(payload: unknown, headers: SdkHeaders): Promise<SdkResponse>;
  getCheckoutSession(checkoutSessionId: string): Promise<SdkResponse>;
  completeCheckoutSession(checkoutSessionId: string, payload: unknown): Promise<SdkResponse>;
  getCharge(chargeId: string): Promise<SdkResponse>;
  captureCharge(chargeId: string, payload: unknown, headers: SdkHeaders): Promise<SdkResponse>;
  cancelCharge(chargeId: string, payload: unknown): Promise<SdkResponse>;
  createRefund(payload: unknown, headers: SdkHeaders): Promise<SdkResponse>;
  getRefund(refundId: string): Promise<SdkResponse>;
  getDispute(disputeId: string): Promise<SdkResponse>;
  getChargePermission(chargePermissionId: string): Promise<SdkResponse>;
}
interface SdkModule {
  WebStoreClient: new (config: SdkConfig) => SdkWebStoreClient;
}
interface SdkHelper {
  prepareOptions(config: Readonly<SdkConfig>, options: SdkRequest): SdkRequest & { payload?: string };
  signHeaders(config: Readonly<SdkConfig>, options: SdkRequest): SdkHeaders;
  retryLogic(axiosOptions: Record<string, unknown>, count: number): Promise<SdkResponse>;
}
interface SdkConstants {
  API_ENDPOINTS: Record<string, string>;
  DEFAULT_REDIRECT: number;
}

const requireCjs = createRequire(import.meta.url);
const SDK_PACKAGE = '@amazonpay/amazon-pay-api-sdk-nodejs';
const sdk = requireCjs(SDK_PACKAGE) as SdkModule;
const sdkHelper = requireCjs(`${SDK_PACKAGE}/src/clientHelper.js`) as SdkHelper;
const sdkConstants = requireCjs(`${SDK_PACKAGE}/src/constants.js`) as SdkConstants;

/** The Japanese region's API host, as the SDK knows it. */
export const AMAZON_PAY_JP_HOST = sdkConstants.API_ENDPOINTS.jp ?? 'pay-api.amazon.jp';

/** The SDK's canonical query string (sorted keys, encodeURIComponent values). */
function sdkQueryString(params: Record<string, string> | null | undefined): string {
  if (!params) return '';
  return `?${Object.keys(params)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(params[k]!)}`)
    .join('&')}`;
}

/**
 * The SDK's WebStoreClient with the transport's base URL chosen by us. Signing is untouched: the request
 * goes through the SDK's prepareOptions and signHeaders exactly as in AmazonPayClient.apiCall.
 */
export class RoutedWebStoreClient extends sdk.WebStoreClient {
  constructor(
    config: SdkConfig,
    private readonly route: { base: string; timeoutMs: number },
  ) {
    super(config);
  }

  override apiCall(options: SdkRequest, maxRedirects = sdkConstants.DEFAULT_REDIRECT): Promise<SdkResponse> {
    const prepared = sdkHelper.prepareOptions(this.configArgs, options);
    prepared.headers = sdkHelper.signHeaders(this.configArgs, prepared);
    // The same axios options as the SDK's invokeApi, but our base URL and a timeout.
    return sdkHelper.retryLogic(
      {
        method: prepared.method,
        json: false,
        headers: prepared.headers,
        url: `${this.route.base}/${prepared.urlFragment}${sdkQueryString(prepared.queryParams)}`,
        data: prepared.payload,
        maxRedirects,
        timeout: this.route.timeoutMs,
        validateStatus: (status: number) => (status >= 200 && status < 300) || (maxRedirects === 0 && status === 303),
      },
      1,
    );
  }
}
