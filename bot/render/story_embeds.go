package render

import "github.com/bwmarrin/discordgo"

// EmbedMessage draws a story message without Components V2, for a channel
// webhook: Discord refuses a webhook's V2 message that uploads files
// ("Providing content, embeds, files[n] or poll will fail", Execute
// Webhook), and a hand's record carries the pictures of its show. The
// lines between hands are the content; each hand's record an embed, its
// title and lines, with the first picture of its show as the embed's
// image, and any other picture an embed of its own, while Discord's ten
// embeds allow. It pings exactly m.Mentions, as Message does.
func (m StoryMessage) EmbedMessage() Message {
	r := Message{Content: m.Content, Mentions: m.Mentions}
	for _, e := range m.Embeds {
		c := *e
		r.Embeds = append(r.Embeds, &c)
	}
	var kept []int
	for i := range m.Pictures {
		image := &discordgo.MessageEmbedImage{URL: "attachment://" + pictureName(i)}
		if at := m.shownIn(i); at >= 0 && r.Embeds[at].Image == nil {
			r.Embeds[at].Image = image
		} else if len(r.Embeds) < maxEmbeds {
			r.Embeds = append(r.Embeds, &discordgo.MessageEmbed{Color: handColour, Image: image})
		} else {
			continue // no room: the picture is left out with its file
		}
		kept = append(kept, i)
	}
	for _, i := range kept {
		r.Files = append(r.Files, PictureFiles(m.Pictures[i : i+1])[0])
		r.Files[len(r.Files)-1].Name = pictureName(i)
	}
	return r
}

// WebhookMessage draws a story message for a webhook's new message, a
// channel webhook's or an interaction's followup (which "functions the
// same as Execute Webhook"): Message, unless it has pictures, which a V2
// message there cannot upload; then EmbedMessage.
func (m StoryMessage) WebhookMessage() Message {
	if len(m.Pictures) > 0 {
		return m.EmbedMessage()
	}
	return m.Message()
}
