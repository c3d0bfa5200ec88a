-- A table's undelivered announcements, read when a post gathers the story
-- lines queued behind it.
CREATE INDEX outbox_table_pending ON outbox (table_id, delivered_at, id);
