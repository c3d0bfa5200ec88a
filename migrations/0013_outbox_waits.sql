-- An announcement that waits is never sent by itself: it goes out with the
-- later one that carries it (a hand's story lines, with the post that ends
-- the hand). The sender's reads pass over them, so the lines of hands in
-- progress at many tables never crowd out what is ready to send.
ALTER TABLE outbox ADD COLUMN waits INTEGER NOT NULL DEFAULT 0;
DROP INDEX IF EXISTS outbox_pending;
CREATE INDEX outbox_ready ON outbox (delivered_at, waits, id);
