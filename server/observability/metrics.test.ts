// The shop's metrics as a scraper reads them: each event counted under bounded labels, what the running
// shop shows read at the scrape, and one registry per shop (two shops in one process count apart).
import { describe, it, expect } from 'vitest';
import type { DrawOutcome } from '#modules/draw';
import { createShopMetrics, MAX_PACK_LABELS } from './metrics';

const drawn = (gachaId: string, count: number, replay = false): DrawOutcome =>
  ({ ok: true, result: { gachaId, count, replay } }) as unknown as DrawOutcome;
const refused = (code: string): DrawOutcome =>
  ({ ok: false, code, details: {}, stored: false }) as unknown as DrawOutcome;

/** The value of one sample line of the Prometheus text, e.g. sample(text, 'shop_draws_total{pack="p"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('shop metrics', () => {
  it('counts draws and lots per pack, replays apart, and refusals by their code', async () => {
    const metrics = createShopMetrics({ processMetrics: false });
    metrics.draw(drawn('stellar-001', 10));
    metrics.draw(drawn('stellar-001', 1));
    metrics.draw(drawn('stellar-001', 10, true));
    metrics.draw(refused('INSUFFICIENT_COINS'));
    metrics.draw(refused('SOMETHING_NEW'));
    const { body, contentType } = await metrics.scrape();
    expect(contentType).toContain('text/plain');
    expect(sample(body, 'shop_draws_total{pack="stellar-001"}')).toBe(2);
    expect(sample(body, 'shop_draw_lots_total{pack="stellar-001"}')).toBe(11);
    expect(sample(body, 'shop_draw_replays_total')).toBe(1);
    expect(sample(body, 'shop_draw_refusals_total{code="INSUFFICIENT_COINS"}')).toBe(1);
    expect(sample(body, 'shop_draw_refusals_total{code="other"}')).toBe(1);
  });

  it(`gives the first ${MAX_PACK_LABELS} packs a label each and the rest one label together`, async () => {
    const metrics = createShopMetrics({ processMetrics: false });
    for (let pack = 0; pack < MAX_PACK_LABELS + 3; pack++) metrics.draw(drawn(`pack-${pack}`, 1));
    metrics.draw(drawn('pack-0', 1));
    const { body } = await metrics.scrape();
    expect(sample(body, 'shop_draws_total{pack="pack-0"}')).toBe(2);
    expect(sample(body, `shop_draws_total{pack="pack-${MAX_PACK_LABELS - 1}"}`)).toBe(1);
    expect(sample(body, `shop_draws_total{pack="pack-${MAX_PACK_LABELS}"}`)).toBeUndefined();
    expect(sample(body, 'shop_draws_total{pack="other"}')).toBe(3);
  });

  it('counts requests by method, route pattern and status, and payments and jobs by their closed lists', async () => {
    const metrics = createShopMetrics({ processMetrics: false });
    metrics.httpRequest({ method: 'POST', route: '/api/v1/gachas/:gachaId/draws', status: 201, seconds: 0.03 });
    metrics.httpRequest({ method: 'BREW', route: '(unmatched)', status: 404, seconds: 0.001 });
    metrics.payment({ method: 'stripe', outcome: 'paid' });
    metrics.payment({ method: 'bitcoin', outcome: 'paid' });
    metrics.jobRun({ job: 'messaging.deliver', ok: true, seconds: 0.2, lagSeconds: 3 });
    metrics.jobRun({ job: 'messaging.deliver', ok: false, seconds: 0.1 });
    const { body } = await metrics.scrape();
    const draws =
      'shop_http_request_duration_seconds_count{method="POST",route="/api/v1/gachas/:gachaId/draws",status="201"}';
    expect(sample(body, draws)).toBe(1);
    expect(
      sample(body, 'shop_http_request_duration_seconds_count{method="OTHER",route="(unmatched)",status="404"}'),
    ).toBe(1);
    expect(sample(body, 'shop_payments_total{provider="stripe",outcome="paid"}')).toBe(1);
    expect(sample(body, 'shop_payments_total{provider="other",outcome="paid"}')).toBe(1);
    expect(sample(body, 'shop_job_runs_total{job="messaging.deliver",outcome="ok"}')).toBe(1);
    expect(sample(body, 'shop_job_runs_total{job="messaging.deliver",outcome="failed"}')).toBe(1);
    expect(sample(body, 'shop_job_lag_seconds_count{job="messaging.deliver"}')).toBe(1);
    expect(sample(body, 'shop_job_last_success_timestamp_seconds{job="messaging.deliver"}')).toBeGreaterThan(0);
  });

  it('reads the connections, the page cache, the outbox and the replica at the scrape', async () => {
    const metrics = createShopMetrics({ processMetrics: false });
    metrics.readAtScrape({
      connections: () => ({ total: 7, idle: 2, waiting: 3, max: 10 }),
      pageCache: { stats: { hits: 40, misses: 2 } },
      outboxBacklog: async () => ({ queued: 12, sending: 1, oldestDueSeconds: 95 }),
      draining: () => true,
    });
    let { body } = await metrics.scrape();
    expect(sample(body, 'shop_db_pool_connections{state="in_use"}')).toBe(5);
    expect(sample(body, 'shop_db_pool_connections{state="idle"}')).toBe(2);
    expect(sample(body, 'shop_db_pool_max_connections')).toBe(10);
    expect(sample(body, 'shop_db_pool_waiting')).toBe(3);
    expect(sample(body, 'shop_page_cache_requests_total{result="hit"}')).toBe(40);
    expect(sample(body, 'shop_outbox_messages{status="queued"}')).toBe(12);
    expect(sample(body, 'shop_outbox_oldest_due_seconds')).toBe(95);
    expect(sample(body, 'shop_draining')).toBe(1);
    // No replica yet: no sample at all (a 0 would read as "in sync"); health shows null.
    expect(body).not.toMatch(/^shop_db_replica_lag_seconds\{/m);
    expect(metrics.replicaLagSeconds()).toBeNull();
    metrics.setReplicaLag(1.5);
    ({ body } = await metrics.scrape());
    expect(sample(body, 'shop_db_replica_lag_seconds{replica="default"}')).toBe(1.5);
  });

  it('leaves the outbox out of a scrape when its count fails, and shows everything else', async () => {
    const metrics = createShopMetrics({ processMetrics: false });
    metrics.readAtScrape({
      outboxBacklog: async () => {
        throw new Error('database away');
      },
    });
    metrics.draw(drawn('stellar-001', 1));
    const { body } = await metrics.scrape();
    expect(body).not.toMatch(/^shop_outbox_messages\{/m);
    expect(sample(body, 'shop_draws_total{pack="stellar-001"}')).toBe(1);
  });

  it('keeps each shop apart: two shops in one process count apart', async () => {
    // (The process metrics start monitors that outlive a test; the HTTP test reads them from its shop.)
    const first = createShopMetrics({ processMetrics: false });
    const second = createShopMetrics({ processMetrics: false });
    first.draw(drawn('stellar-001', 1));
    const [one, two] = [(await first.scrape()).body, (await second.scrape()).body];
    expect(sample(one, 'shop_draws_total{pack="stellar-001"}')).toBe(1);
    expect(sample(two, 'shop_draws_total{pack="stellar-001"}')).toBeUndefined();
    expect(two).not.toMatch(/^process_cpu_user_seconds_total /m);
  });
});
