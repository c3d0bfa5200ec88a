package bot

import (
	"github.com/cribbage-bot/cribbage"
)

// Store is every service the bot uses, as the domain package declares
// them (MessageBook among them: what the bot keeps of Discord). The SQL
// store provides them all, and tests may provide doubles held to it by one
// conformance suite. Bot and store never import each other.
type Store interface {
	cribbage.TableService
	cribbage.TimerService
	cribbage.OutboxService
	cribbage.RecordService
	cribbage.GuildService
	cribbage.TournamentService
	cribbage.MessageBook
	cribbage.DailyService
}
