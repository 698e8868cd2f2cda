// Runs loadTest in a child process, so the load generator does not share the server's event loop.
import { loadTest } from './load';

process.once('message', async (options: Parameters<typeof loadTest>[0]) => {
  process.send?.(await loadTest(options));
  process.disconnect?.();
});
