// Package command is the bot's slash commands as Discord registers them
// (Definitions), and the check of an interaction's options against them
// before any handler reads one (Check): Discord's client keeps to what was
// registered, but an interaction is whatever was sent.
package command
