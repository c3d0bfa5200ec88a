-- A finished table's rematch, once made: a table has one rematch, made in
-- the same transaction that records it here, whoever clicks Rematch.
ALTER TABLE tables ADD COLUMN rematch_id BIGINT NOT NULL DEFAULT 0;
