package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
)

// TestRouteTable: every action has one route, and every subcommand (and user command) registered with
// Discord has one handler.
func TestRouteTable(t *testing.T) {
	seen := map[click.Action]bool{}
	for _, r := range clickRoutes {
		if seen[r.action] {
			t.Errorf("action %q has two routes", r.action)
		}
		seen[r.action] = true
	}
	for _, a := range click.Actions() {
		if !seen[a] {
			t.Errorf("action %q has no route", a)
		}
	}
	registered := map[command.Key]bool{}
	for _, c := range command.Definitions() {
		if c.Type == discordgo.UserApplicationCommand {
			k := command.Key{Command: c.Name, Sub: ""}
			registered[k] = true
			if _, ok := commandsByName[k]; !ok {
				t.Errorf("the user command %q is registered but has no route", c.Name)
			}
		}
		for _, o := range c.Options {
			paths := []string{o.Name}
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				paths = nil
				for _, s := range o.Options {
					paths = append(paths, o.Name+" "+s.Name)
				}
			}
			for _, p := range paths {
				k := command.Key{Command: c.Name, Sub: p}
				registered[k] = true
				if _, ok := commandsByName[k]; !ok {
					t.Errorf("/%s %s is registered but has no route", c.Name, p)
				}
			}
		}
	}
	for _, r := range commandRoutes {
		if !registered[command.Key{Command: r.command, Sub: r.name}] {
			t.Errorf("route /%s %s is not a registered subcommand", r.command, r.name)
		}
	}
}
