package bot

import "github.com/cribbage-bot/cribbage"

// Store is every service the bot uses. The domain package declares them;
// the SQL store provides them all, and tests may provide doubles. Bot and
// store never import each other.
type Store interface {
	cribbage.TableService
	cribbage.TimerService
	cribbage.OutboxService
	cribbage.RecordService
}
