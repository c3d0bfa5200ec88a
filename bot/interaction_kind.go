package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
)

// interactionKind names an interaction for the metrics: the subcommand or
// the button's action, never anything a user typed.
func interactionKind(ic *discordgo.Interaction) string {
	switch ic.Type {
	case discordgo.InteractionApplicationCommand:
		data := ic.ApplicationCommandData()
		if data.CommandType == discordgo.UserApplicationCommand {
			if _, ok := commandsByName[command.Key{Command: data.Name, Sub: ""}]; ok {
				return "menu:challenge"
			}
			return "menu:unknown"
		}
		if len(data.Options) > 0 {
			if r, ok := commandsByName[command.Key{Command: data.Name, Sub: data.Options[0].Name}]; ok {
				// /cribbage's subcommands by name alone, as before the
				// other commands came; theirs with the command.
				if r.command == command.Play {
					return "command:" + r.name
				}
				return "command:" + r.command + " " + r.name
			}
		}
		return "command:unknown"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		var id string
		if ic.Type == discordgo.InteractionModalSubmit {
			id = ic.ModalSubmitData().CustomID
		} else {
			id = ic.MessageComponentData().CustomID
		}
		if c, err := click.Parse(id); err == nil {
			return "click:" + string(c.Action)
		}
		return "click:unknown"
	}
	return "other"
}
