// Amazon Pay's descriptor: AMAZONPAY_PUBLIC_KEY_ID + AMAZONPAY_PRIVATE_KEY (or _FILE) + AMAZONPAY_STORE_ID,
// optional AMAZONPAY_SNS_TOPIC_ARNS, or in sandbox mode the local stand-in (devtools/standins/amazonpay)
// with a key pair made for the run. Notes: amazonpay.md.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { PaymentProviderDescriptor } from '../index';

interface AmazonpayKeys {
  publicKeyId: string;
  privateKey: string;
  storeId: string;
  snsTopicArns?: string;
}

export const amazonpayProvider: PaymentProviderDescriptor<AmazonpayKeys> = {
  method: 'amazonpay',
  keysFrom(settings) {
    const privateKey =
      settings.AMAZONPAY_PRIVATE_KEY ??
      (settings.AMAZONPAY_PRIVATE_KEY_FILE ? fs.readFileSync(settings.AMAZONPAY_PRIVATE_KEY_FILE, 'utf8') : undefined);
    if (!settings.AMAZONPAY_PUBLIC_KEY_ID || !privateKey || !settings.AMAZONPAY_STORE_ID) return null;
    return {
      publicKeyId: settings.AMAZONPAY_PUBLIC_KEY_ID,
      privateKey,
      storeId: settings.AMAZONPAY_STORE_ID,
      snsTopicArns: settings.AMAZONPAY_SNS_TOPIC_ARNS,
    };
  },
  async createReal(keys, { settings, log }) {
    const { createAmazonpayProvider } = await import('./amazonpay');
    const provider = createAmazonpayProvider({
      publicKeyId: keys.publicKeyId,
      privateKey: keys.privateKey,
      storeId: keys.storeId,
      merchantStoreName: settings.SITE_NAME.slice(0, 50),
      snsTopicArns: keys.snsTopicArns
        ?.split(',')
        .map((arn) => arn.trim())
        .filter(Boolean),
      onSubscriptionMessage: (info) => log.warn(info, 'Amazon Pay SNS subscription message'),
    });
    if (!keys.snsTopicArns) {
      log.warn(
        {},
        'AMAZONPAY_SNS_TOPIC_ARNS is not set: IPNs from any SNS topic are accepted (each is still re-read with our key). Set it to the TopicArn of your first IPN.',
      );
    }
    return { provider, pageSources: { formAction: ['https:'] } };
  },
  async createSandboxed({ settings, webhookUrl }) {
    const [{ createAmazonpayProvider }, { startAmazonpayStandin }] = await Promise.all([
      import('./amazonpay'),
      import('#devtools/standins/amazonpay'),
    ]);
    // The merchant's key pair, made for this run: the stand-in checks every request's signature with it.
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const keys = {
      publicKeyId: `SANDBOX-${randomBytes(12).toString('hex').toUpperCase()}`,
      storeId: 'amzn1.application-oa2-client.standin',
    };
    const standin = await startAmazonpayStandin({ host: '127.0.0.1', webhookUrl, publicKey, ...keys });
    return {
      provider: createAmazonpayProvider({
        ...keys,
        privateKey,
        merchantStoreName: settings.SITE_NAME.slice(0, 50),
        apiBase: standin.url,
        trustedSnsOrigins: [standin.snsOrigin],
      }),
      standinUrl: standin.url,
      close: () => standin.close(),
    };
  },
};
