-- PostgreSQL only: the daily posts' ids from a sequence, as table ids are
-- (0008), so replicas claiming posts at once never take the same one.
CREATE SEQUENCE IF NOT EXISTS daily_posts_id_seq;
SELECT setval('daily_posts_id_seq', COALESCE((SELECT MAX(id) FROM daily_posts), 0) + 1, false);
