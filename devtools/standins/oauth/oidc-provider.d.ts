// The few parts of oidc-provider 9 (no bundled types) the Google stand-in uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaLikeContext {
    path: string;
    query: Record<string, string | string[] | undefined>;
    type: string;
    body: unknown;
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string };
  }
  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        interactions?: { url(ctx: KoaLikeContext, interaction: { uid: string }): string };
        findAccount?(ctx: KoaLikeContext, sub: string): Promise<Account | undefined>;
        renderError?(ctx: KoaLikeContext, out: Record<string, unknown>, error: unknown): Promise<void>;
      },
    );
    proxy: boolean;
    Grant: typeof Grant;
    use(middleware: (ctx: KoaLikeContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
