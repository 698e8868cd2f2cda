// React Router framework settings: server rendering with route middleware (guards run there).
import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  future: { v8_middleware: true },
} satisfies Config;
