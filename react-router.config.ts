// React Router framework settings: server rendering with route middleware (guards run there).
import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    // Off until the route handlers read the `url` argument instead of request.url (decision 070).
    v8_passThroughRequests: false,
  },
} satisfies Config;
