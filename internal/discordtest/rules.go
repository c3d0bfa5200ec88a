package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// The rules Discord enforces that its OpenAPI schema does not express
// (testdata/discord-openapi/README.md lists them): a component emoji must be
// a real emoji, custom_ids unique, a select alone in its row, and the
// lengths and counts of a classic message. Each failure is Discord's 400
// 50035 naming the field.

// Discord's limits on messages and components.
const (
	maxContent        = 2000 // characters of content
	maxEmbedTotal     = 6000 // characters across every embed of a message
	maxRows           = 5    // action rows in a message
	maxRowButtons     = 5    // buttons in one action row
	maxSelectOptions  = 25   // options of a select menu
	maxOptionText     = 100  // an option's label, value or description
	maxButtonLabel    = 80   // a button's label
	maxPlaceholder    = 150  // a select's placeholder
	maxCustomID       = 100  // a component's custom_id
	maxModalTitle     = 45   // a modal's title
	maxTextInputLabel = 45   // a text input's label
	maxChoices        = 25   // autocomplete choices
	maxMentionedUsers = 100  // allowed_mentions.users

	flagComponentsV2 = 1 << 15 // IS_COMPONENTS_V2: a message of layout components
)

// Component types the bot may send.
const (
	componentRow       = 1
	componentButton    = 2
	componentSelect    = 3
	componentTextInput = 4
)

// Button styles: link and premium buttons carry no custom_id.
const (
	buttonLink    = 5
	buttonPremium = 6
)

// obj is a decoded JSON object.
type obj = map[string]any

// path is where in the body a rule failed.
type path []string

func (p path) with(keys ...any) path {
	out := slices.Clone(p)
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			out = append(out, k)
		case int:
			out = append(out, strconv.Itoa(k))
		}
	}
	return out
}

// fail is a rule's refusal.
func (p path) fail(code, msg string) *apiError { return invalidForm(p, code, msg) }

// checkMessage applies the message rules to a body that creates or edits
// a message (also an interaction response's data).
func checkMessage(m obj, at path) *apiError {
	if s, ok := m["content"].(string); ok && utf8.RuneCountInString(s) > maxContent {
		return at.with("content").fail("BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
	}
	if err := checkEmbeds(m, at); err != nil {
		return err
	}
	if err := checkMentions(m, at); err != nil {
		return err
	}
	flags, _ := m["flags"].(float64)
	if int(flags)&flagComponentsV2 != 0 {
		return checkV2(m, at) // v2.go
	}
	rows, _ := m["components"].([]any)
	if len(rows) > maxRows {
		return at.with("components").fail("BASE_TYPE_BAD_LENGTH", "Must be between 0 and 5 in length.")
	}
	ids := map[string]bool{}
	for r, row := range rows {
		row, _ := row.(obj)
		if err := checkRow(row, at.with("components", r), ids, false); err != nil {
			return err
		}
	}
	return nil
}

// checkRow checks one action row and its components; ids collects the
// message's custom_ids, which must be unique.
func checkRow(row obj, at path, ids map[string]bool, modal bool) *apiError {
	if t, _ := row["type"].(float64); int(t) != componentRow {
		return at.with("type").fail("UNION_TYPE_CHOICES", "Top-level components must be action rows.")
	}
	comps, _ := row["components"].([]any)
	if len(comps) == 0 {
		return at.with("components").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	for c, comp := range comps {
		comp, _ := comp.(obj)
		cat := at.with("components", c)
		t, _ := comp["type"].(float64)
		switch int(t) {
		case componentButton:
			if modal {
				return cat.with("type").fail("COMPONENT_TYPE_INVALID", "A modal holds text inputs only.")
			}
			if len(comps) > maxRowButtons {
				return at.with("components").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
			}
			if err := checkButton(comp, cat); err != nil {
				return err
			}
		case componentTextInput:
			if !modal {
				return cat.with("type").fail("COMPONENT_TYPE_INVALID", "Text inputs belong in modals.")
			}
			if len(comps) != 1 {
				return at.with("components").fail("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A text input fills its row.")
			}
			if err := checkTextInput(comp, cat); err != nil {
				return err
			}
		default: // the select menus, types 3 and 5 to 8
			if modal {
				return cat.with("type").fail("COMPONENT_TYPE_INVALID", "A modal holds text inputs only.")
			}
			if len(comps) != 1 {
				return at.with("components").fail("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select menu must be alone in its row.")
			}
			if err := checkSelect(comp, cat, int(t)); err != nil {
				return err
			}
		}
		if id, ok := comp["custom_id"].(string); ok {
			if id == "" || utf8.RuneCountInString(id) > maxCustomID {
				return cat.with("custom_id").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
			}
			if ids[id] {
				return cat.with("custom_id").fail("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
			}
			ids[id] = true
		}
	}
	return nil
}

// checkButton checks a button: a custom_id unless it is a link, a label or
// an emoji, and an emoji Discord accepts.
func checkButton(b obj, at path) *apiError {
	style, _ := b["style"].(float64)
	_, hasID := b["custom_id"].(string)
	url, _ := b["url"].(string)
	switch int(style) {
	case buttonLink:
		if hasID || url == "" {
			return at.with("url").fail("BUTTON_COMPONENT_URL_REQUIRED", "A link button has a url and no custom_id.")
		}
	case buttonPremium:
	default:
		if !hasID {
			return at.with("custom_id").fail("BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required")
		}
		if url != "" {
			return at.with("url").fail("BUTTON_COMPONENT_INVALID_URL", "Only link buttons have a url.")
		}
	}
	label, _ := b["label"].(string)
	if utf8.RuneCountInString(label) > maxButtonLabel {
		return at.with("label").fail("BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
	}
	emoji, hasEmoji := b["emoji"].(obj)
	if label == "" && !hasEmoji && int(style) != buttonPremium {
		return at.with("label").fail("BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji.")
	}
	if hasEmoji {
		return checkEmoji(emoji, at.with("emoji"), "BUTTON_COMPONENT_INVALID_EMOJI")
	}
	return nil
}

// checkEmoji checks a component emoji: with an id it is a custom emoji;
// without, its name must be exactly one Unicode emoji.
func checkEmoji(e obj, at path, code string) *apiError {
	if id, ok := e["id"].(string); ok && id != "" {
		return nil
	}
	name, _ := e["name"].(string)
	if !isEmoji(name) {
		return at.with("name").fail(code, "Invalid emoji")
	}
	return nil
}

// checkSelect checks a select menu's options and placeholder.
func checkSelect(s obj, at path, t int) *apiError {
	if ph, _ := s["placeholder"].(string); utf8.RuneCountInString(ph) > maxPlaceholder {
		return at.with("placeholder").fail("BASE_TYPE_MAX_LENGTH", "Must be 150 or fewer in length.")
	}
	if _, ok := s["custom_id"].(string); !ok {
		return at.with("custom_id").fail("BASE_TYPE_REQUIRED", "This field is required")
	}
	if t != componentSelect {
		return nil
	}
	opts, _ := s["options"].([]any)
	if len(opts) == 0 || len(opts) > maxSelectOptions {
		return at.with("options").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
	}
	values := map[string]bool{}
	for i, o := range opts {
		o, _ := o.(obj)
		oat := at.with("options", i)
		for _, k := range []string{"label", "value", "description"} {
			if v, _ := o[k].(string); utf8.RuneCountInString(v) > maxOptionText || (k != "description" && v == "") {
				return oat.with(k).fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
			}
		}
		v, _ := o["value"].(string)
		if values[v] {
			return oat.with("value").fail("SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique")
		}
		values[v] = true
		if e, ok := o["emoji"].(obj); ok {
			if err := checkEmoji(e, oat.with("emoji"), "SELECT_COMPONENT_OPTION_INVALID_EMOJI"); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTextInput checks a modal's text input.
func checkTextInput(ti obj, at path) *apiError {
	if l, _ := ti["label"].(string); l == "" || utf8.RuneCountInString(l) > maxTextInputLabel {
		return at.with("label").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length.")
	}
	if _, ok := ti["custom_id"].(string); !ok {
		return at.with("custom_id").fail("BASE_TYPE_REQUIRED", "This field is required")
	}
	return nil
}

// checkEmbeds counts every embed's text against the 6000-character total.
func checkEmbeds(m obj, at path) *apiError {
	embeds, _ := m["embeds"].([]any)
	total := 0
	count := func(v any) {
		if s, ok := v.(string); ok {
			total += utf8.RuneCountInString(s)
		}
	}
	for _, e := range embeds {
		e, _ := e.(obj)
		count(e["title"])
		count(e["description"])
		if f, ok := e["footer"].(obj); ok {
			count(f["text"])
		}
		if a, ok := e["author"].(obj); ok {
			count(a["name"])
		}
		fields, _ := e["fields"].([]any)
		for _, f := range fields {
			f, _ := f.(obj)
			count(f["name"])
			count(f["value"])
		}
	}
	if total > maxEmbedTotal {
		return at.with("embeds").fail("MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
	}
	return nil
}

// checkMentions checks allowed_mentions: users listed and "users" parsed
// are mutually exclusive, and at most 100 users.
func checkMentions(m obj, at path) *apiError {
	am, ok := m["allowed_mentions"].(obj)
	if !ok {
		return nil
	}
	users, _ := am["users"].([]any)
	parse, _ := am["parse"].([]any)
	if len(users) > 0 && slices.Contains(parse, any("users")) {
		return at.with("allowed_mentions").fail("MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", `parse:["users"] and users: [ids...] are mutually exclusive.`)
	}
	if len(users) > maxMentionedUsers {
		return at.with("allowed_mentions", "users").fail("BASE_TYPE_BAD_LENGTH", "Must be 100 or fewer in length.")
	}
	return nil
}

// checkModal checks a modal: a title, a custom_id, and one to five rows of
// one text input each.
func checkModal(d obj, at path) *apiError {
	if t, _ := d["title"].(string); t == "" || utf8.RuneCountInString(t) > maxModalTitle {
		return at.with("title").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length.")
	}
	if id, _ := d["custom_id"].(string); id == "" || utf8.RuneCountInString(id) > maxCustomID {
		return at.with("custom_id").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	rows, _ := d["components"].([]any)
	if len(rows) == 0 || len(rows) > maxRows {
		return at.with("components").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	ids := map[string]bool{}
	for r, row := range rows {
		row, _ := row.(obj)
		if err := checkRow(row, at.with("components", r), ids, true); err != nil {
			return err
		}
	}
	return nil
}

// checkChoices checks an autocomplete answer.
func checkChoices(d obj, at path) *apiError {
	if choices, _ := d["choices"].([]any); len(choices) > maxChoices {
		return at.with("choices").fail("BASE_TYPE_BAD_LENGTH", "Must be 25 or fewer in length.")
	}
	return nil
}

// decodeObject decodes a JSON object body, or returns nil.
func decodeObject(doc []byte) obj {
	var m obj
	if json.Unmarshal(doc, &m) != nil {
		return nil
	}
	return m
}

// checkRules applies the hand rules that fit an operation's body.
func checkRules(rt route, doc []byte) *apiError {
	if doc == nil {
		return nil
	}
	switch {
	case rt.Template == "/channels/{channel_id}/messages",
		rt.Template == "/channels/{channel_id}/messages/{message_id}",
		strings.HasPrefix(rt.Template, "/webhooks/{webhook_id}/{webhook_token}"):
		if m := decodeObject(doc); m != nil {
			return checkMessage(m, nil)
		}
	case rt.Template == "/interactions/{interaction_id}/{interaction_token}/callback":
		m := decodeObject(doc)
		data, _ := m["data"].(obj)
		if data == nil {
			return nil
		}
		t, _ := m["type"].(float64)
		switch int(t) {
		case responseMessage, responseUpdate:
			return checkMessage(data, path{"data"})
		case responseModal:
			return checkModal(data, path{"data"})
		case responseChoices:
			return checkChoices(data, path{"data"})
		}
	case strings.HasSuffix(rt.Template, "/commands") && rt.Method == http.MethodPut:
		return checkCommands(doc)
	}
	return nil
}

// Interaction response types the rules look at.
const (
	responsePong         = 1
	responseMessage      = 4
	responseDeferMessage = 5
	responseDeferUpdate  = 6
	responseUpdate       = 7
	responseChoices      = 8
	responseModal        = 9
	maxCommands          = 100
)

// Application command types.
const (
	commandChatInput = 1
	commandUser      = 2
	commandMessage   = 3
)

// maxContextMenus is how many user commands, and how many message
// commands, an application may register in one scope.
const maxContextMenus = 5

// chatInputName is what a CHAT_INPUT command's name (and an option's) may
// be: letters, digits, '-', '_' and "'", lower case where the letter has
// a lower case, 1 to 32 of them.
func chatInputName(name string) bool {
	n := utf8.RuneCountInString(name)
	if n < 1 || n > 32 {
		return false
	}
	for _, r := range name {
		ok := r == '-' || r == '_' || r == '\'' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.In(r, unicode.Devanagari, unicode.Thai)
		if !ok || unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}

// checkCommands checks a bulk overwrite: at most 100 commands, names unique
// per type, and each command as its type allows. A USER or MESSAGE command
// (a context menu) has a name of 1 to 32 characters, mixed case and spaces
// allowed, an empty description and no options; an application has at
// most 5 of each.
func checkCommands(doc []byte) *apiError {
	var cmds []obj
	if json.Unmarshal(doc, &cmds) != nil {
		return nil // the schema said what is wrong
	}
	if len(cmds) > maxCommands {
		return path{}.fail("BASE_TYPE_BAD_LENGTH", "Must be 100 or fewer in length.")
	}
	seen := map[string]bool{}
	perType := map[int]int{}
	for i, c := range cmds {
		name, _ := c["name"].(string)
		t := commandChatInput
		if f, ok := c["type"].(float64); ok {
			t = int(f)
		}
		key := fmt.Sprint(t, name)
		if seen[key] {
			return path{}.with(i, "name").fail("APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
		perType[t]++
		if err := checkCommand(c, t, path{}.with(i)); err != nil {
			return err
		}
		if (t == commandUser || t == commandMessage) && perType[t] > maxContextMenus {
			return path{}.with(i, "type").fail("APPLICATION_COMMAND_TOO_MANY", "Maximum number of context menu commands of this type reached (5)")
		}
	}
	return nil
}

// checkCommand checks one command against its type's rules.
func checkCommand(c obj, t int, at path) *apiError {
	name, _ := c["name"].(string)
	desc, _ := c["description"].(string)
	opts, _ := c["options"].([]any)
	switch t {
	case commandChatInput:
		if !chatInputName(name) {
			return at.with("name").fail("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if n := utf8.RuneCountInString(desc); n < 1 || n > 100 {
			return at.with("description").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		return checkChatInputLocalized(c, at)
	case commandUser, commandMessage:
		if n := utf8.RuneCountInString(name); n < 1 || n > 32 {
			return at.with("name").fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
		}
		if desc != "" {
			return at.with("description").fail("APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION", "Context menu commands cannot have a description")
		}
		if len(opts) > 0 {
			return at.with("options").fail("APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Only chat input commands can have options")
		}
		return checkLocalized(c, "name_localizations", at, textLength(32), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
	}
	return nil
}

// allowedResponses are the response types Discord accepts for each kind of
// interaction. UPDATE_MESSAGE and its deferral belong to components (and to
// a modal opened from one); a modal cannot answer a modal.
var allowedResponses = map[discordgo.InteractionType][]int{
	discordgo.InteractionPing:                           {responsePong},
	discordgo.InteractionApplicationCommand:             {responseMessage, responseDeferMessage, responseModal},
	discordgo.InteractionMessageComponent:               {responseMessage, responseDeferMessage, responseDeferUpdate, responseUpdate, responseModal},
	discordgo.InteractionApplicationCommandAutocomplete: {responseChoices},
	discordgo.InteractionModalSubmit:                    {responseMessage, responseDeferMessage, responseDeferUpdate, responseUpdate},
}

// checkResponseType refuses a response type the interaction cannot take.
func checkResponseType(i *discordgo.Interaction, t int) *apiError {
	ok := slices.Contains(allowedResponses[i.Type], t)
	if i.Type == discordgo.InteractionModalSubmit && (t == responseUpdate || t == responseDeferUpdate) && i.Message == nil {
		ok = false // a modal opened by a command has no message to update
	}
	if !ok {
		return path{"type"}.fail("INTERACTION_RESPONSE_TYPE_INVALID", fmt.Sprintf("Response type %d is not valid for an interaction of type %d", t, i.Type))
	}
	return nil
}
