-- PostgreSQL only: tournament ids from a sequence, as table ids are (0008).
CREATE SEQUENCE IF NOT EXISTS tournaments_id_seq;
SELECT setval('tournaments_id_seq', COALESCE((SELECT MAX(id) FROM tournaments), 0) + 1, false);
