-- PostgreSQL only: ids come from sequences, so replicas creating tables and
-- queueing announcements at once never take the same id. Each starts after
-- the largest id already there.
CREATE SEQUENCE IF NOT EXISTS tables_id_seq;
SELECT setval('tables_id_seq', COALESCE((SELECT MAX(id) FROM tables), 0) + 1, false);
CREATE SEQUENCE IF NOT EXISTS outbox_id_seq;
SELECT setval('outbox_id_seq', COALESCE((SELECT MAX(id) FROM outbox), 0) + 1, false);
