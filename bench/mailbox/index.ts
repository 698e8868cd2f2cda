// The mailbox with a million members (issue 14, decision 034): BENCH_MEMBERS members (1,000,000 by
// default), a history of broadcasts over the last half year (most to everyone, some to a rank, a genre's
// buyers or inactive members) and personal mails for a tenth of them are seeded in bulk SQL into a fresh
// database. Then a broadcast to everyone is sent (it must be one insert: no row per member), a share of
// members read it, and a member's two lists and unread count (with the shop's full segment matcher, as
// the pages and the header ask) and the operators' list with its read and claim counts are timed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#db/client';
import { percentile, timed } from '../timing';
import { createTestDatabase } from '#tests/database';
import { paragraph } from '#modules/content';
import { composeMail, listMails, listSentMails, unreadMailCount } from '#modules/mailbox';
import { shopMailboxOptions } from '#server/mailbox';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);
const BROADCASTS = Number(process.env.BENCH_BROADCASTS ?? 120);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const READERS = Math.floor(MEMBERS / 5);
const TARGET_MS = 50;

const count = async (db: typeof handle.db, table: string) =>
  Number(
    ((await db.execute(sql.raw(`select count(*)::bigint as n from ${table}`))) as unknown as { rows: { n: string }[] })
      .rows[0]!.n,
  );

const database = await createTestDatabase('bench_mailbox');
const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolSize: 2 });
try {
  await handle.migrate();
  const db = handle.db;
  const body = JSON.stringify([paragraph('ベンチマークのお知らせです。')]);
  const seed = await timed(async () => {
    await db.execute(sql`insert into genres (id, name) values ('bench', 'ベンチ') on conflict do nothing`);
    await db.execute(sql`
      insert into users (id, name, email, created_at, updated_at)
      select 'bench-member-' || n, '会員' || n, 'bench-' || n || '@example.test',
             now() - interval '200 days' + make_interval(secs => (random() * 150 * 86400)::int), now()
        from generate_series(1, ${MEMBERS}) as n`);
    // Broadcasts over the last 180 days: 70 % to everyone, the rest to a rank, the genre's buyers or the inactive.
    await db.execute(sql`
      insert into mails (audience, segment, category, subject, body, attachment_coins, claim_until, attachment_reason, send_at)
      select 'broadcast',
             case when n % 10 < 7 then '{"kind":"all"}'::jsonb
                  when n % 10 = 7 then '{"kind":"rank","minRank":1}'::jsonb
                  when n % 10 = 8 then '{"kind":"genre_buyers","genreId":"bench"}'::jsonb
                  else '{"kind":"inactive","days":30}'::jsonb end,
             'operator', 'お知らせ ' || n, ${body}::jsonb,
             case when n % 3 = 0 then 50 end, case when n % 3 = 0 then now() + interval '7 days' end,
             case when n % 3 = 0 then 'mail_attachment' end,
             now() - make_interval(secs => (n * 180 * 86400 / ${BROADCASTS})::int)
        from generate_series(1, ${BROADCASTS}) as n`);
    // Personal (system) mails: five each for a tenth of the members.
    await db.execute(sql`
      insert into mails (audience, member_id, category, subject, body, dedupe_key, send_at)
      select 'personal', 'bench-member-' || (1 + (m * 10) % ${MEMBERS}), 'purchase_complete', '購入完了 ' || k,
             ${body}::jsonb, 'bench:' || k, now() - make_interval(secs => (k * 86400))
        from generate_series(1, ${Math.floor(MEMBERS / 10)}) as m, generate_series(1, 5) as k`);
    await db.execute(sql`analyze`);
  });

  const mailsBefore = await count(db, 'mails');
  const statesBefore = await count(db, 'mail_states');
  const send = await timed(() =>
    composeMail(db, {
      to: { audience: 'broadcast', segment: { kind: 'all' } },
      subject: '100万人へのお知らせ',
      body: [paragraph('全員へ')],
      attachment: { coins: 10, claimUntil: new Date(Date.now() + 7 * 86_400_000) },
      sendAt: new Date(Date.now() - 1000),
      createdBy: 'bench',
    }),
  );
  const rowsWritten = {
    mails: (await count(db, 'mails')) - mailsBefore,
    mailStates: (await count(db, 'mail_states')) - statesBefore,
  };
  // A fifth of the members open it (their lazy state rows), for the operators' counts.
  const reads = await timed(() =>
    db.execute(sql`
      insert into mail_states (mail_id, member_id, read_at)
      select ${send.value.mailId}, 'bench-member-' || n, now() from generate_series(1, ${READERS}) as n`),
  );

  const options = shopMailboxOptions();
  const member = (i: number) => `bench-member-${1 + ((i * 7919) % MEMBERS)}`;
  for (let i = 0; i < 20; i++) await unreadMailCount(db, member(i), options); // warm up
  const personal: number[] = [];
  const broadcasts: number[] = [];
  const unread: number[] = [];
  let seen = 0;
  for (let i = 0; i < RUNS; i++) {
    const who = member(i * 13 + 1);
    personal.push((await timed(() => listMails(db, who, 'personal', { limit: 20 }, options))).ms);
    const list = await timed(() => listMails(db, who, 'broadcast', { limit: 20 }, options));
    broadcasts.push(list.ms);
    if (list.value.items.some((m) => m.id === send.value.mailId)) seen += 1;
    unread.push((await timed(() => unreadMailCount(db, who, options))).ms);
  }
  const operators = await timed(() => listSentMails(db, { limit: 100 }));
  const sent = operators.value.items.find((m) => m.id === send.value.mailId)!;
  const summary = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95), maxMs: sorted.at(-1)! };
  };
  const report = {
    benchmark: 'mailbox',
    engine: database.engine,
    when: new Date().toISOString(),
    cores: os.cpus().length,
    node: process.version,
    seeded: { members: MEMBERS, broadcastsInHalfYear: BROADCASTS, personalMails: Math.floor(MEMBERS / 10) * 5 },
    seedSeconds: Math.round(seed.ms / 100) / 10,
    sendToEveryone: { ms: send.ms, rowsWritten },
    readersSeeded: { members: READERS, ms: reads.ms },
    member: {
      runs: RUNS,
      personalList: summary(personal),
      broadcastList: summary(broadcasts),
      unreadCount: summary(unread),
      sawTheBroadcast: seen,
      targetP95Ms: TARGET_MS,
    },
    operatorsList: { ms: operators.ms, reads: sent.reads, claims: sent.claims },
  };
  console.log(JSON.stringify(report, null, 2));
  if (rowsWritten.mails !== 1 || rowsWritten.mailStates !== 0)
    throw new Error(`a broadcast wrote ${JSON.stringify(rowsWritten)}, not one row`);
  if (seen !== RUNS) throw new Error(`only ${seen} of ${RUNS} members saw the broadcast`);
  if (sent.reads !== READERS) throw new Error(`counted ${sent.reads} reads, not ${READERS}`);
  for (const [name, times] of [
    ['unread count', unread],
    ['broadcast list', broadcasts],
  ] as const)
    if (summary(times).p95Ms >= TARGET_MS) throw new Error(`${name} p95 ${summary(times).p95Ms} ms ≥ ${TARGET_MS} ms`);
  if (process.env.BENCH_SAVE !== '0') {
    const file = path.join(import.meta.dirname, '..', 'results', 'mailbox.json');
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await handle.close();
  await database.drop();
}
