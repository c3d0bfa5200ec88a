-- Each channel's webhook, which the bot makes to post its story through
-- (a webhook's token is outside the bot token's global rate limit): one a
-- channel, shared by its tables. A row with no webhook_id records that
-- Discord refused to make one (the bot lacks Manage Webhooks), at
-- refused_at, so that it is not asked again at every post; refused_at is
-- 0 when there is a webhook. Times are Unix milliseconds, as everywhere.
CREATE TABLE channel_webhooks (
    channel_id TEXT   PRIMARY KEY,
    webhook_id TEXT   NOT NULL DEFAULT '',
    token      TEXT   NOT NULL DEFAULT '',
    refused_at BIGINT NOT NULL DEFAULT 0
);
