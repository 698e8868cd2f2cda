// The shop's one clean-up list: last opened, first closed; each step once; a failing step does not stop
// the others (server/main.ts uses it for a failed start and for stop alike).
import { describe, expect, it } from 'vitest';
import { OpenedServices } from './closers';

describe('OpenedServices', () => {
  it('closes last opened first, each once, and goes on past a failure', async () => {
    const opened = new OpenedServices();
    const closed: string[] = [];
    const errors: string[] = [];
    opened.add('database', () => void closed.push('database'));
    opened.add('mail', () => {
      closed.push('mail');
      throw new Error('transport down');
    });
    const streams = opened.add('live streams', async () => void closed.push('live streams'));
    opened.add('server', () => void closed.push('server'));
    expect(opened.closingOrder()).toEqual(['server', 'live streams', 'mail', 'database']);

    // Called early (the live streams end before the HTTP server can drain), then skipped by closeAll.
    await streams();
    await streams();
    await opened.closeAll({ error: (object, message) => void errors.push(message) });
    expect(closed).toEqual(['live streams', 'server', 'mail', 'database']);
    expect(errors).toEqual(['closing mail failed']);
    // Nothing is left: a second closeAll closes nothing again.
    await opened.closeAll();
    expect(closed).toHaveLength(4);
  });
});
