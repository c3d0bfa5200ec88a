// Package render turns the game into what Discord shows: the table
// message, a seat's hand view, the story's posts and their wording, and
// the board picture, with the Components V2 building blocks (Container,
// TextDisplay, Gallery, V2) another surface (the tournament message) is
// drawn from. It is pure: a table (and its events) in, message data out,
// with no store, clock or network, so every surface is drawn the same way
// by whichever part of the bot shows it and can be held to golden files.
package render
