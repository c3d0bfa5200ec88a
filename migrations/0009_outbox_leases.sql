-- Which bot process delivers a table's announcements, until when. A sender
-- takes a table's lease before sending, renews it while it works, and lets
-- it lapse if it dies: then another process takes the table over and sends
-- from its first undelivered announcement (the nonce makes a resend of a
-- post harmless). One sender a table keeps its announcements in order.
CREATE TABLE outbox_leases (
    table_id BIGINT PRIMARY KEY,
    owner    TEXT   NOT NULL,
    until    BIGINT NOT NULL
);
