-- The shop's invariants across modules (architecture.md), applied last by db/module-sql.ts after
-- every module's own SQL (docs/decisions/010). It reads the tables of gacha, draw, wallet,
-- progression, shipping, stock, payments and the shop's closure (decision 085) and writes nothing.

-- Every invariant of architecture.md that the data can show, as a list of violations (empty = all hold).
-- JIT off: the plan's estimated cost passes jit_above_cost on big packs, and compiling it took longer
-- (about 0.2 s a call) than running it; tests and benchmarks call this after every step.
CREATE OR REPLACE FUNCTION shop_check_invariants() RETURNS jsonb
LANGUAGE sql STABLE SET jit = off AS $$
  SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (
    -- lots: claimed + unclaimed = total; a sold-out pack has none left
    SELECT jsonb_build_object('check', 'lots_total', 'gachaId', g.id, 'total', g.total_lots, 'lots', count(l.position)) AS v
      FROM gachas g LEFT JOIN gacha_lots l ON l.gacha_id = g.id
     WHERE g.commitment IS NOT NULL GROUP BY g.id HAVING count(l.position) <> g.total_lots
    UNION ALL
    SELECT jsonb_build_object('check', 'sold_out_has_lots', 'gachaId', g.id)
      FROM gachas g WHERE g.status = 'sold_out'
       AND EXISTS (SELECT 1 FROM gacha_lots l WHERE l.gacha_id = g.id AND l.draw_id IS NULL)
    UNION ALL
    SELECT jsonb_build_object('check', 'empty_pack_on_sale', 'gachaId', g.id)
      FROM gachas g WHERE g.status = 'on_sale' AND g.commitment IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM gacha_lots l WHERE l.gacha_id = g.id AND l.draw_id IS NULL)
    UNION ALL
    -- a claimed lot has exactly one prize, the same draw's, and nothing else claims it; a beacon pack's slot
    -- (decision 081) has none while its draw's receipt is unsettled, and has no tier exactly then
    SELECT jsonb_build_object('check', 'lot_prize_mismatch', 'gachaId', l.gacha_id, 'position', l.position)
      FROM gacha_lots l LEFT JOIN prizes p ON p.gacha_id = l.gacha_id AND p.position = l.position
      LEFT JOIN draw_receipts r ON r.draw_id = l.draw_id
     WHERE (l.draw_id IS NOT NULL AND r.settled_at IS NULL AND r.draw_id IS NOT NULL
             AND (p.id IS NOT NULL OR l.tier_id IS NOT NULL))
        OR (l.draw_id IS NOT NULL AND (r.draw_id IS NULL OR r.settled_at IS NOT NULL)
             AND (p.id IS NULL OR p.draw_id <> l.draw_id OR p.member_id <> l.member_id OR p.tier_id <> l.tier_id))
        OR (l.draw_id IS NULL AND p.id IS NOT NULL)
    UNION ALL
    -- a beacon pack's unclaimed slot has no tier; a sequence pack's lot always has one
    SELECT jsonb_build_object('check', 'slot_tier_mismatch', 'gachaId', l.gacha_id, 'position', l.position)
      FROM gacha_lots l JOIN gachas g ON g.id = l.gacha_id
     WHERE (g.draw_mode = 'sequence' AND l.tier_id IS NULL) OR (l.draw_id IS NULL AND l.tier_id IS NOT NULL AND g.draw_mode = 'beacon')
    UNION ALL
    -- the ラストワン賞: exactly one when a pack with one sold out, otherwise none
    SELECT jsonb_build_object('check', 'last_one_count', 'gachaId', g.id, 'awarded', count(p.id))
      FROM gachas g JOIN gacha_tiers t ON t.gacha_id = g.id AND t.is_last_one
      LEFT JOIN prizes p ON p.tier_id = t.id
     GROUP BY g.id, g.status
    HAVING count(p.id) <> CASE WHEN g.status = 'sold_out' AND NOT EXISTS (
                                 SELECT 1 FROM draw_receipts r WHERE r.gacha_id = g.id AND r.settled_at IS NULL) THEN 1 ELSE 0 END
    UNION ALL
    -- キリ番賞 (decision 027): number K is won exactly when K lots are sold, once, as its own tier's prize;
    -- the pack's kiriban_next is the smallest number not yet reached. Only packs with キリ番 are read
    -- (their lots counted once each), so the check costs nothing for the others.
    SELECT v FROM (
      WITH kb AS MATERIALIZED (
             SELECT t.gacha_id, t.id AS tier_id, k.n FROM gacha_tiers t, unnest(t.kiriban_at) AS k(n)
              WHERE t.kiriban_at IS NOT NULL),
           sold AS MATERIALIZED (
             SELECT g.id AS gacha_id, g.kiriban_next,
                    (SELECT count(*) FROM gacha_lots l WHERE l.gacha_id = g.id AND l.draw_id IS NOT NULL
                        AND l.tier_id IS NOT NULL) AS sold
               FROM gachas g WHERE g.commitment IS NOT NULL AND g.id IN (SELECT gacha_id FROM kb))
      SELECT jsonb_build_object('check', 'kiriban_award', 'gachaId', s.gacha_id, 'kiriban', kb.n, 'sold', s.sold,
               'awarded', (SELECT count(*) FROM prizes p WHERE p.gacha_id = s.gacha_id AND p.kiriban_no = kb.n)) AS v
        FROM kb JOIN sold s ON s.gacha_id = kb.gacha_id
       WHERE (SELECT count(*) FROM prizes p WHERE p.gacha_id = s.gacha_id AND p.kiriban_no = kb.n
                 AND p.tier_id = kb.tier_id AND p.position IS NULL)
             <> CASE WHEN kb.n <= s.sold THEN 1 ELSE 0 END
      UNION ALL
      SELECT jsonb_build_object('check', 'kiriban_next', 'gachaId', s.gacha_id, 'next', s.kiriban_next)
        FROM sold s
       WHERE s.kiriban_next IS DISTINCT FROM (SELECT min(kb.n) FROM kb WHERE kb.gacha_id = s.gacha_id AND kb.n > s.sold)
      UNION ALL
      SELECT jsonb_build_object('check', 'kiriban_next', 'gachaId', g.id, 'next', g.kiriban_next)
        FROM gachas g WHERE g.kiriban_next IS NOT NULL AND g.id NOT IN (SELECT gacha_id FROM kb)
    ) kiriban
    UNION ALL
    -- 個人キリ番賞 and ピタリ賞 (decision 088): a member's number n is won once, exactly when they have drawn n lots
    -- of the pack, as its own tier's prize; a ピタリ賞 once, exactly when its tier has no unclaimed lot.
    SELECT jsonb_build_object('check', 'personal_kiriban_award', 'gachaId', t.gacha_id, 'memberId', m.member_id,
             'number', k.n, 'lots', m.lots)
      FROM gacha_tiers t CROSS JOIN LATERAL unnest(t.personal_kiriban_at) AS k(n)
      JOIN (SELECT x.gacha_id, x.member_id, count(*) AS lots FROM gacha_lots x
             WHERE x.draw_id IS NOT NULL AND x.member_id IS NOT NULL GROUP BY 1, 2) m ON m.gacha_id = t.gacha_id
     WHERE t.personal_kiriban_at IS NOT NULL
       AND (SELECT count(*) FROM prizes p WHERE p.gacha_id = t.gacha_id AND p.member_id = m.member_id
               AND p.personal_kiriban_no = k.n AND p.tier_id = t.id AND p.position IS NULL)
           <> CASE WHEN k.n <= m.lots THEN 1 ELSE 0 END
    UNION ALL
    SELECT jsonb_build_object('check', 'pitari_award', 'gachaId', t.gacha_id, 'tierId', t.pitari_of)
      FROM gacha_tiers t
     WHERE t.pitari_of IS NOT NULL
       AND EXISTS (SELECT 1 FROM gacha_lots x WHERE x.gacha_id = t.gacha_id AND x.tier_id = t.pitari_of)
       AND (SELECT count(*) FROM prizes p WHERE p.gacha_id = t.gacha_id AND p.tier_id = t.id AND p.pitari_of = t.pitari_of)
           <> CASE WHEN EXISTS (SELECT 1 FROM gacha_lots x WHERE x.gacha_id = t.gacha_id AND x.tier_id = t.pitari_of
                                   AND x.draw_id IS NULL) THEN 0 ELSE 1 END
    UNION ALL
    -- 天井賞 (decision 089): a member's 天井賞 of a pack are numbered 1 … their count, the count their row keeps, at
    -- most ⌊their lots ÷ N⌋ (each uses up N lots), with a streak below N; the walk itself is recounted by check 10.
    SELECT jsonb_build_object('check', 'ceiling_award', 'gachaId', m.gacha_id, 'memberId', m.member_id,
             'ceilings', m.ceilings, 'given', coalesce(c.n, 0), 'lots', m.lots)
      FROM gacha_member_draws m JOIN gacha_tiers t ON t.gacha_id = m.gacha_id AND t.ceiling_after IS NOT NULL
      LEFT JOIN (SELECT p.gacha_id, p.member_id, count(*) AS n, max(p.ceiling_no) AS top FROM prizes p
                  WHERE p.ceiling_no IS NOT NULL GROUP BY 1, 2) c ON c.gacha_id = m.gacha_id AND c.member_id = m.member_id
     WHERE m.ceilings <> coalesce(c.n, 0) OR coalesce(c.top, 0) <> coalesce(c.n, 0)
        OR m.ceilings > m.lots / t.ceiling_after OR m.ceiling_streak < 0 OR m.ceiling_streak >= t.ceiling_after
    UNION ALL
    SELECT jsonb_build_object('check', 'extra_prize_stray', 'prizeId', p.id)
      FROM prizes p
     WHERE (p.personal_kiriban_no IS NOT NULL AND NOT EXISTS (SELECT 1 FROM gacha_tiers t WHERE t.id = p.tier_id
              AND p.personal_kiriban_no = ANY (t.personal_kiriban_at)))
        OR (p.pitari_of IS NOT NULL AND NOT EXISTS (SELECT 1 FROM gacha_tiers t WHERE t.id = p.tier_id
              AND t.pitari_of = p.pitari_of))
        OR (p.ceiling_no IS NOT NULL AND NOT EXISTS (SELECT 1 FROM gacha_tiers t WHERE t.id = p.tier_id
              AND t.ceiling_after IS NOT NULL))
    UNION ALL
    SELECT jsonb_build_object('check', 'kiriban_stray', 'prizeId', p.id)
      FROM prizes p WHERE p.kiriban_no IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM gacha_tiers t WHERE t.id = p.tier_id AND p.kiriban_no = ANY (t.kiriban_at))
    UNION ALL
    -- nothing is won after a pack's seed and log were made public
    SELECT jsonb_build_object('check', 'prize_after_reveal', 'gachaId', g.id, 'prizes', count(*))
      FROM gachas g JOIN prizes p ON p.gacha_id = g.id
     WHERE g.revealed_at IS NOT NULL AND p.created_at > g.revealed_at
     GROUP BY g.id
    UNION ALL
    -- a draw: completed ones paid exactly count × price for exactly count lots (a beacon draw: count slots,
    -- and its lots once its receipt is settled); refused ones nothing
    SELECT jsonb_build_object('check', 'draw_mismatch', 'drawId', d.id, 'status', d.status,
             'lots', (SELECT count(*) FROM prizes p WHERE p.draw_id = d.id AND p.position IS NOT NULL),
             'paid', (SELECT coalesce(-sum(e.amount), 0) FROM coin_ledger e WHERE e.idem_key = 'draw:' || d.id))
      FROM draws d
     WHERE (d.status = 'completed' AND (
              (SELECT count(*) FROM prizes p WHERE p.draw_id = d.id AND p.position IS NOT NULL)
                <> CASE WHEN EXISTS (SELECT 1 FROM draw_receipts r WHERE r.draw_id = d.id AND r.settled_at IS NULL)
                        THEN 0 ELSE d.count END
           OR (SELECT count(*) FROM gacha_lots l WHERE l.gacha_id = d.gacha_id AND l.draw_id = d.id) <> d.count
           OR (SELECT coalesce(-sum(e.amount), 0) FROM coin_ledger e WHERE e.idem_key = 'draw:' || d.id) <> d.cost))
        OR (d.status = 'refused' AND (
              EXISTS (SELECT 1 FROM prizes p WHERE p.draw_id = d.id)
           OR EXISTS (SELECT 1 FROM coin_ledger e WHERE e.idem_key = 'draw:' || d.id)))
    UNION ALL
    -- coins: the cached balance equals the ledger and the grants, per kind; nothing negative
    SELECT jsonb_build_object('check', 'wallet_vs_ledger', 'memberId', w.member_id, 'paid', w.paid, 'free', w.free,
             'ledgerPaid', coalesce(e.paid, 0), 'ledgerFree', coalesce(e.free, 0),
             'grantsPaid', coalesce(gr.paid, 0), 'grantsFree', coalesce(gr.free, 0))
      FROM wallets w
      LEFT JOIN (SELECT member_id, sum(amount) FILTER (WHERE kind = 'paid') AS paid,
                        sum(amount) FILTER (WHERE kind = 'free') AS free
                   FROM coin_ledger GROUP BY member_id) e ON e.member_id = w.member_id
      LEFT JOIN (SELECT member_id, sum(remaining) FILTER (WHERE kind = 'paid') AS paid,
                        sum(remaining) FILTER (WHERE kind = 'free') AS free
                   FROM coin_grants GROUP BY member_id) gr ON gr.member_id = w.member_id
     WHERE w.paid <> coalesce(e.paid, 0) OR w.free <> coalesce(e.free, 0)
        OR w.paid <> coalesce(gr.paid, 0) OR w.free <> coalesce(gr.free, 0)
        OR w.paid < 0 OR w.free < 0
    UNION ALL
    SELECT jsonb_build_object('check', 'ledger_without_wallet', 'memberId', e.member_id)
      FROM (SELECT DISTINCT member_id FROM coin_ledger) e
     WHERE NOT EXISTS (SELECT 1 FROM wallets w WHERE w.member_id = e.member_id)
    UNION ALL
    -- each grant: amount − remaining = what its debits took; its credit entry exists, once
    SELECT jsonb_build_object('check', 'grant_vs_ledger', 'grantId', gr.id)
      FROM coin_grants gr
      LEFT JOIN (SELECT grant_id, sum(amount) FILTER (WHERE amount > 0) AS credited,
                        count(*) FILTER (WHERE amount > 0) AS credits,
                        coalesce(-sum(amount) FILTER (WHERE amount < 0), 0) AS debited,
                        bool_and(kind = (SELECT kind FROM coin_grants x WHERE x.id = grant_id)) AS same_kind
                   FROM coin_ledger WHERE grant_id IS NOT NULL GROUP BY grant_id) e ON e.grant_id = gr.id
     WHERE e.grant_id IS NULL OR e.credits <> 1 OR e.credited <> gr.amount
        OR gr.amount - gr.remaining <> e.debited OR NOT e.same_kind
    UNION ALL
    -- experience: 1 exp per coin spent on draws
    SELECT jsonb_build_object('check', 'exp_vs_draws', 'memberId', m.member_id, 'exp', m.exp, 'spent', coalesce(s.spent, 0))
      FROM member_progress m
      LEFT JOIN (SELECT member_id, sum(cost) AS spent FROM draws WHERE status = 'completed' GROUP BY member_id) s
        ON s.member_id = m.member_id
     WHERE m.exp <> coalesce(s.spent, 0)
    UNION ALL
    -- shipping: a prize is 'shipping' exactly when one live request of its own member holds it
    -- (a canceled request holds none), so it is never both shipped and converted
    SELECT jsonb_build_object('check', 'prize_shipping_mismatch', 'prizeId', p.id, 'status', p.status,
             'liveRequests', count(i.request_id))
      FROM prizes p
      LEFT JOIN shipping_request_items i ON i.prize_id = p.id AND i.released_at IS NULL
      LEFT JOIN shipping_requests r ON r.id = i.request_id
     WHERE p.status = 'shipping' OR i.prize_id IS NOT NULL
     GROUP BY p.id, p.status
    HAVING (p.status = 'shipping') <> (count(i.request_id) = 1)
        OR bool_or(r.member_id <> p.member_id) OR bool_or(r.status = 'canceled')
    UNION ALL
    -- shipping: each request spent exactly its fee, gave back no more than that (only when canceled),
    -- and was compensated exactly the coins it records, once
    SELECT jsonb_build_object('check', 'shipping_coins_mismatch', 'requestId', r.id)
      FROM shipping_requests r
     WHERE (SELECT coalesce(-sum(e.amount), 0) FROM coin_ledger e WHERE e.idem_key = 'shipping-fee:' || r.id) <> r.fee_coins
        OR (SELECT coalesce(sum(e.amount), 0) FROM coin_ledger e
             WHERE e.idem_key IN ('shipping-fee-refund:' || r.id || ':paid', 'shipping-fee-refund:' || r.id || ':free'))
           NOT IN (0, CASE WHEN r.status = 'canceled' THEN r.fee_coins ELSE 0 END)
        OR (SELECT coalesce(sum(e.amount), 0) FROM coin_ledger e WHERE e.idem_key = 'shipping-late:' || r.id)
           <> r.compensation_coins
        OR (r.compensated_at IS NULL) <> (r.compensation_coins = 0)
    UNION ALL
    -- stock (decision 023): each card's counters are the sums of its movements, and `reserved` is
    -- exactly what is promised: the unclaimed lots (and the ラストワン賞, and the キリ番賞 not yet reached) of its tiers in packs still on
    -- sale or scheduled, plus the prizes it stands for (their substitute's card, else their tier's)
    -- that are neither converted nor gone in a parcel: undecided, kept, or in a request that is
    -- requested, preparing or returned. A card reported missing stands for no prize any more (the
    -- prize has a substitute or was compensated, i.e. converted).
    SELECT jsonb_build_object('check', 'stock_reserved_mismatch', 'stockCardId', s.id, 'reserved', s.reserved,
             'expected', coalesce(l.n, 0) + coalesce(p.n, 0))
      FROM stock_cards s
      LEFT JOIN (SELECT t.stock_card_id, sum(CASE WHEN t.is_last_one THEN 1
                        WHEN t.kiriban_at IS NOT NULL THEN
                          (SELECT count(*) FROM unnest(t.kiriban_at) k
                            WHERE k > (SELECT count(*) FROM gacha_lots x WHERE x.gacha_id = t.gacha_id
                                          AND x.draw_id IS NOT NULL AND x.tier_id IS NOT NULL))
                        -- a ピタリ賞 (decision 088) until its tier's last lot is claimed
                        WHEN t.pitari_of IS NOT NULL THEN
                          CASE WHEN EXISTS (SELECT 1 FROM gacha_lots x WHERE x.gacha_id = t.gacha_id
                                               AND x.tier_id = t.pitari_of AND x.draw_id IS NULL) THEN 1 ELSE 0 END
                        -- a 個人キリ番賞's most, less each number a member has reached
                        WHEN t.personal_kiriban_at IS NOT NULL THEN
                          t.quantity - (SELECT count(*)
                                          FROM (SELECT count(*) AS n FROM gacha_lots x WHERE x.gacha_id = t.gacha_id
                                                   AND x.draw_id IS NOT NULL GROUP BY x.member_id) m,
                                               unnest(t.personal_kiriban_at) k
                                         WHERE k <= m.n)
                        -- a 天井賞's most, less each one given (decision 089)
                        WHEN t.ceiling_after IS NOT NULL THEN
                          t.quantity - (SELECT count(*) FROM prizes x WHERE x.tier_id = t.id AND x.ceiling_no IS NOT NULL)
                        ELSE
                          t.quantity - (SELECT count(*) FROM gacha_lots x WHERE x.gacha_id = t.gacha_id AND x.tier_id = t.id
                              AND x.draw_id IS NOT NULL) END) AS n
                   FROM gacha_tiers t JOIN gachas g ON g.id = t.gacha_id
                  WHERE (g.status IN ('scheduled', 'on_sale')
                         -- a beacon pack over with receipts still to settle: what they may still win is promised
                         OR EXISTS (SELECT 1 FROM draw_receipts r WHERE r.gacha_id = g.id AND r.settled_at IS NULL))
                    AND t.stock_card_id IS NOT NULL
                  GROUP BY t.stock_card_id) l ON l.stock_card_id = s.id
      LEFT JOIN (SELECT coalesce(pc.stock_card_id, t.stock_card_id) AS stock_card_id, count(*) AS n
                   FROM prizes pr JOIN gacha_tiers t ON t.id = pr.tier_id
                   LEFT JOIN stock_prize_cards pc ON pc.prize_id = pr.id
                  WHERE pr.status IN ('pending', 'kept')
                     OR (pr.status = 'shipping' AND EXISTS (
                          SELECT 1 FROM shipping_request_items i JOIN shipping_requests r ON r.id = i.request_id
                           WHERE i.prize_id = pr.id AND i.released_at IS NULL
                             AND r.status IN ('requested', 'preparing', 'returned')))
                  GROUP BY 1) p ON p.stock_card_id = s.id
     WHERE s.reserved <> coalesce(l.n, 0) + coalesce(p.n, 0)
    UNION ALL
    SELECT jsonb_build_object('check', 'stock_vs_movements', 'stockCardId', s.id, 'onHand', s.on_hand,
             'reserved', s.reserved, 'movedOnHand', coalesce(m.on_hand, 0), 'movedReserved', coalesce(m.reserved, 0))
      FROM stock_cards s
      LEFT JOIN (SELECT stock_card_id, sum(on_hand_delta) AS on_hand, sum(reserved_delta) AS reserved
                   FROM stock_movements GROUP BY stock_card_id) m ON m.stock_card_id = s.id
     WHERE s.on_hand <> coalesce(m.on_hand, 0) OR s.reserved <> coalesce(m.reserved, 0)
    UNION ALL
    -- a card the shop could not send and paid for instead: that prize is converted and got exactly
    -- the coins recorded, once; a substitute is the prize's card from then on
    SELECT jsonb_build_object('check', 'missing_card_mismatch', 'prizeId', x.prize_id, 'requestId', x.request_id)
      FROM shipping_substitutions x JOIN prizes pr ON pr.id = x.prize_id
     WHERE (x.substitute_stock_card_id IS NULL AND (pr.status <> 'converted'
              OR (SELECT coalesce(sum(e.amount), 0) FROM coin_ledger e
                   WHERE e.idem_key = 'prize-compensation:' || x.prize_id) <> x.compensation_coins))
        OR (x.substitute_stock_card_id IS NOT NULL AND x.compensation_coins <> 0)
    UNION ALL
    -- the closure (decision 085): a refund recorded as paid debited exactly its paid coins, once, under its key;
    -- one not paid debited nothing; and no closure_refund entry exists without its paid refund
    SELECT jsonb_build_object('check', 'closure_refund_mismatch', 'refundId', f.id, 'paidCoins', f.paid_coins,
             'debited', coalesce(d.debited, 0))
      FROM shop_closure_refunds f
      LEFT JOIN (SELECT idem_key, -sum(amount) AS debited, count(*) FILTER (WHERE kind <> 'paid') AS other_kind
                   FROM coin_ledger WHERE reason = 'closure_refund' GROUP BY idem_key) d
        ON d.idem_key = 'closure-refund:' || f.id
     WHERE (f.paid_at IS NULL AND d.idem_key IS NOT NULL)
        OR (f.paid_at IS NOT NULL AND (d.idem_key IS NULL OR d.debited <> f.paid_coins OR d.other_kind > 0))
    UNION ALL
    SELECT jsonb_build_object('check', 'closure_refund_without_application', 'idemKey', e.idem_key)
      FROM coin_ledger e
     WHERE e.reason = 'closure_refund'
       AND NOT EXISTS (SELECT 1 FROM shop_closure_refunds f
                        WHERE 'closure-refund:' || f.id = e.idem_key AND f.paid_at IS NOT NULL AND f.member_id = e.member_id)
    UNION ALL
    -- nothing is sold after a live closure's sales stop: no completed draw, no new coin order
    SELECT jsonb_build_object('check', 'sale_after_sales_stop', 'drawId', dr.id)
      FROM shop_closures c JOIN draws dr ON dr.created_at >= c.sales_stop_at AND dr.created_at >= c.announced_at
     WHERE c.cancelled_at IS NULL AND dr.status = 'completed'
    UNION ALL
    SELECT jsonb_build_object('check', 'order_after_sales_stop', 'orderId', o.id)
      FROM shop_closures c JOIN payment_orders o ON o.created_at >= c.sales_stop_at AND o.created_at >= c.announced_at
     WHERE c.cancelled_at IS NULL
  ) violations
$$;
