// Sends the requests better-auth's social providers make to their fixed https hosts (accounts.google.com,
// api.github.com, graph.facebook.com, api.x.com…) to the local stand-ins instead, by putting an undici
// dispatcher in front of Node's global fetch for the duration of a test file. Production code is
// unchanged; other hosts go out as before.
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

export interface OAuthNetwork {
  /** Puts the previous global dispatcher back and closes this one. */
  restore(): Promise<void>;
}

/**
 * Routes every request for one of `routes`' host names to the given local origin (same path and query).
 * @example const network = routeHostsTo({ 'api.github.com': github.url }); afterAll(() => network.restore())
 */
export function routeHostsTo(routes: Record<string, string>): OAuthNetwork {
  const previous = getGlobalDispatcher();
  const agent = new Agent().compose(
    (dispatch: Dispatcher['dispatch']): Dispatcher['dispatch'] =>
      (options, handler) => {
        const origin = options.origin ? new URL(String(options.origin)) : null;
        const target = origin ? routes[origin.host] : undefined;
        if (!target) return dispatch(options, handler);
        return dispatch({ ...options, origin: target }, handler);
      },
  );
  setGlobalDispatcher(agent);
  return {
    async restore() {
      setGlobalDispatcher(previous);
      await agent.close();
    },
  };
}

/** The routes for a set of stand-ins: each of its hosts to its local URL. */
export function routesOf(standins: Array<{ hosts: readonly string[]; url: string }>): Record<string, string> {
  return Object.fromEntries(standins.flatMap((standin) => standin.hosts.map((host) => [host, standin.url])));
}
