\set member random(1, 200)
SELECT draw_a(:member, 1, 1, gen_random_uuid()::text);
