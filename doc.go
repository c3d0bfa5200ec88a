// Package cribbage is the domain the bot and the store share: a cribbage
// table in a Discord channel and its game, the change one move makes, the
// announcements it queues, and the records games leave; and the services
// the bot needs, which the store implements. It imports only the engine,
// so the bot (the Discord adapter) and the store (the SQL adapter) depend
// on it and never on each other (the layout of benbjohnson/wtf).
package cribbage
