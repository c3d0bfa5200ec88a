package command

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// /cribbage-admin settings changes a server's settings all or none: a bad
// value is refused with what to write instead, and nothing changes.

// The bounds of the timers a server may set (or turn off): a reminder
// more often than every 10 minutes is noise, a forfeit within the hour is
// no time to come back, and beyond 90 days either is as good as off.
const (
	minReminder = 10 * time.Minute
	minForfeit  = time.Hour
	maxTimer    = 90 * 24 * time.Hour
)

// settingError refuses a setting, saying what to write instead.
type settingError string

func (e settingError) Error() string { return string(e) }

// SettingsChange is the change the options given make, and Said its
// words, one for each setting it changes.
type SettingsChange struct {
	changes []func(gs *cribbage.GuildSettings)
	Said    []string
}

func (c *SettingsChange) set(what string, fn func(gs *cribbage.GuildSettings)) {
	c.changes, c.Said = append(c.changes, fn), append(c.Said, what)
}

// Apply makes the change to gs.
func (c *SettingsChange) Apply(gs *cribbage.GuildSettings) {
	for _, fn := range c.changes {
		fn(gs)
	}
}

// ParseSettings reads the options given to /cribbage-admin settings in
// the server guildID into one change; any bad value refuses them all, with
// what to write instead.
func ParseSettings(guildID string, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) (*SettingsChange, error) {
	c := &SettingsChange{}
	if err := c.reset(opts); err != nil {
		return nil, err
	}
	if err := c.timer(opts, SetReminder, minReminder, "reminders", func(gs *cribbage.GuildSettings, d *time.Duration) { gs.ReminderAfter = d }); err != nil {
		return nil, err
	}
	if err := c.timer(opts, SetForfeit, minForfeit, "forfeits", func(gs *cribbage.GuildSettings, d *time.Duration) { gs.ForfeitAfter = d }); err != nil {
		return nil, err
	}
	if o, ok := opts[SetPoints]; ok {
		points := int(o.IntValue())
		c.set(fmt.Sprintf("games to %d unless /cribbage start says otherwise", points), func(gs *cribbage.GuildSettings) { gs.DefaultPoints = points })
	}
	if o, ok := opts[SetChannel]; ok {
		id := o.Value.(string)
		c.set(fmt.Sprintf("tables open in <#%s> only", id), func(gs *cribbage.GuildSettings) { gs.GamesChannel = id })
	}
	if o, ok := opts[SetMaxTables]; ok {
		n := int(o.IntValue())
		words := fmt.Sprintf("at most %d open table%s a person", n, render.Plural(n))
		if n == 0 {
			words = "no limit on open tables"
		}
		c.set(words, func(gs *cribbage.GuildSettings) { gs.MaxOpenTables = n })
	}
	if o, ok := opts[SetCancelRole]; ok {
		id := o.Value.(string)
		if id == guildID {
			// The @everyone role's id is the server's.
			return nil, settingError("`cancel-role` can't be @everyone: that would let anyone cancel any table. Pick a role for the people you trust with it.")
		}
		c.set(fmt.Sprintf("<@&%s> may cancel tables", id), func(gs *cribbage.GuildSettings) { gs.CancelRole = id })
	}
	if o, ok := opts[SetLanguage]; ok {
		l, known := lang.ByCode(o.StringValue())
		if !known {
			return nil, settingError("`language` takes one of the languages Discord lists as you type it.")
		}
		c.set(fmt.Sprintf("table messages, stories and tournaments in %s", l.Name()), func(gs *cribbage.GuildSettings) { gs.Language = l.Code() })
	}
	return c, nil
}

// reset reads the reset option: one setting back to the default, or
// every one, and never together with setting it.
func (c *SettingsChange) reset(opts map[string]*discordgo.ApplicationCommandInteractionDataOption) error {
	o, ok := opts["reset"]
	if !ok {
		return nil
	}
	name := o.StringValue()
	if _, also := opts[name]; also {
		return settingError(fmt.Sprintf("`%s` is both set and reset: choose one.", name))
	}
	if name == SetEverything && len(opts) > 1 {
		return settingError("`reset: everything` puts every setting back: give it alone.")
	}
	c.set(resetWords(name), func(gs *cribbage.GuildSettings) { resetSetting(gs, name) })
	return nil
}

// timer reads a timer's option: a wait from least to maxTimer, or off.
func (c *SettingsChange) timer(opts map[string]*discordgo.ApplicationCommandInteractionDataOption, name string, least time.Duration, what string,
	field func(gs *cribbage.GuildSettings, d *time.Duration)) error {
	o, ok := opts[name]
	if !ok {
		return nil
	}
	d, err := cribbage.ParseDuration(o.StringValue())
	if err != nil || d != 0 && (d < least || d > maxTimer) {
		return settingError(fmt.Sprintf("`%s` takes a time from %s to %s, like 90m, 12h or 3d, or `off`.", name, render.WaitWords(least), render.WaitWords(maxTimer)))
	}
	words := what + " after " + render.WaitWords(d)
	if d == 0 {
		words = what + " off"
	}
	c.set(words, func(gs *cribbage.GuildSettings) { field(gs, &d) })
	return nil
}

// resetSetting puts one setting, or every one, back to the default.
func resetSetting(gs *cribbage.GuildSettings, name string) {
	all := name == SetEverything
	if all || name == SetReminder {
		gs.ReminderAfter = nil
	}
	if all || name == SetForfeit {
		gs.ForfeitAfter = nil
	}
	if all || name == SetPoints {
		gs.DefaultPoints = 0
	}
	if all || name == SetChannel {
		gs.GamesChannel = ""
	}
	if all || name == SetMaxTables {
		gs.MaxOpenTables = 0
	}
	if all || name == SetCancelRole {
		gs.CancelRole = ""
	}
	if all || name == SetLanguage {
		gs.Language = ""
	}
}

// resetWords says what a reset did.
func resetWords(name string) string {
	if name == SetEverything {
		return "every setting back to the default"
	}
	return "`" + name + "` back to the default"
}
