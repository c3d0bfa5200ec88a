package command

import (
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// ComputerLevel is the level a player's choice of computer plays at.
func ComputerLevel(choice string) (ai.Level, bool) {
	switch choice {
	case render.LevelEasy:
		return ai.Easy, true
	case render.LevelStrong:
		return ai.Expert, true
	}
	return "", false
}
