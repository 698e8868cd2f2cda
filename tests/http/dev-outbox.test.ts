// The developer outbox on the built shop (the test shop runs on http://localhost: sandbox on, no
// SMTP or Twilio configured): the page renders, unindexed; its JSON form answers for a recipient;
// Twilio's status route is not there without Twilio. The 404s with the sandbox off are checked in
// server/messaging.db.test.ts, against the same loader and route.
import { describe, expect, it } from 'vitest';
import { get, robotsMetaOf, titleOf, shopUrl } from '#tests/http';

describe('/dev/outbox on the test shop', () => {
  it('renders the page, not indexed and not cached', async () => {
    const page = await get('/dev/outbox?to=nobody-here%40example.jp');
    expect(page.status).toBe(200);
    expect(titleOf(page.body)).toContain('送信メッセージ（開発用）');
    expect(robotsMetaOf(page.body)).toBe('noindex, nofollow');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('メッセージはまだありません。');
  });

  it('answers the JSON form for a recipient, and refuses a bad limit', async () => {
    const answer = await get('/dev/outbox.json?to=nobody-here%40example.jp');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ messages: [] });
    expect((await get('/dev/outbox.json?limit=1000')).status).toBe(400);
  });

  it('has no Twilio status route when Twilio is not configured', async () => {
    const response = await fetch(`${shopUrl()}/api/webhooks/twilio/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'MessageSid=SM00&MessageStatus=delivered',
    });
    expect(response.status).toBe(404);
  });
});
