\set member random(1, 200)
SELECT draw_e(:member, 1, 1, gen_random_uuid()::text);
