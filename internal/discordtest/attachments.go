package discordtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png" // uploads named .png must decode as PNG
	"mime"
	"mime/multipart"
	pathpkg "path"
	"regexp"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits on uploads: ten files a message, 10 MiB each without
// server boosts.
const (
	maxFiles    = 10
	maxFileSize = 10 << 20
)

// upload is a file part of a multipart request, named files[n].
type upload struct {
	index       int
	filename    string
	contentType string
	data        []byte
}

var filePart = regexp.MustCompile(`^files\[(\d+)\]$`)

// readUploads returns the file parts of a multipart body, or nil for any
// other body. A part that is neither payload_json nor files[n] is refused:
// Discord would ignore it, so a bot sending one has a bug.
func readUploads(contentType string, body []byte) ([]upload, *apiError) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" {
		return nil, nil
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var files []upload
	seen := map[int]bool{}
	for {
		part, err := mr.NextPart()
		if err != nil {
			break
		}
		name := part.FormName()
		if name == "payload_json" {
			continue
		}
		m := filePart.FindStringSubmatch(name)
		if m == nil {
			return nil, invalidForm([]string{name}, "UNKNOWN_FIELD", "A multipart part is payload_json or files[n].")
		}
		n, _ := strconv.Atoi(m[1])
		if seen[n] {
			return nil, invalidForm([]string{name}, "DUPLICATE_FILE", "Two parts upload files["+m[1]+"].")
		}
		seen[n] = true
		var buf bytes.Buffer
		buf.ReadFrom(part)
		files = append(files, upload{index: n, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), data: buf.Bytes()})
	}
	return files, nil
}

// checkUploads applies the rules on files a request can be checked for on
// its own: how many, how large, that a picture is one, and that an
// attachments list names each new file by its index.
func checkUploads(doc []byte, files []upload) *apiError {
	if len(files) == 0 {
		return nil
	}
	if len(files) > maxFiles {
		return invalidForm([]string{"files"}, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxFiles))
	}
	for _, f := range files {
		at := []string{fmt.Sprintf("files[%d]", f.index)}
		switch {
		case len(f.data) > maxFileSize:
			return &apiError{Status: 413, Code: 40005, Message: "Request entity too large"}
		case f.filename == "":
			return invalidForm(at, "BASE_TYPE_REQUIRED", "A file needs a filename.")
		}
		if ext := strings.ToLower(pathpkg.Ext(f.filename)); ext == ".png" {
			if _, format, err := image.DecodeConfig(bytes.NewReader(f.data)); err != nil || format != "png" {
				return invalidForm(at, "INVALID_FILE_ASSET", "The file is named .png but is not a PNG image.")
			}
		}
	}
	var body struct {
		Attachments *[]struct {
			ID       json.RawMessage `json:"id"`
			Filename string          `json:"filename"`
		} `json:"attachments"`
	}
	json.Unmarshal(doc, &body)
	if body.Attachments == nil {
		return nil
	}
	listed := map[int]bool{}
	for _, a := range *body.Attachments {
		id := strings.Trim(string(a.ID), `"`)
		if n, err := strconv.Atoi(id); err == nil && n < maxFiles {
			listed[n] = true
		}
	}
	for _, f := range files {
		if !listed[f.index] {
			// Discord (API v10) drops a new file the attachments list leaves
			// out: the bot meant to show it, so this is a bug.
			return invalidForm([]string{"attachments"}, "ATTACHMENT_NOT_LISTED", fmt.Sprintf("files[%d] is uploaded but not in attachments.", f.index))
		}
	}
	return nil
}

// attachmentsAfter works out a message's attachments after a create or an
// edit: with an attachments list, exactly the existing attachments it
// keeps (by id) and the new files it names (by index); without one, the
// existing attachments and every new file. Then every attachment:// an
// embed points at must be one of them: Discord shows no picture otherwise.
func (s *Server) attachmentsAfter(channelID string, existing []*discordgo.MessageAttachment, doc []byte, files []upload, embeds []*discordgo.MessageEmbed) ([]*discordgo.MessageAttachment, *apiError) {
	var body struct {
		Attachments *[]struct {
			ID          json.RawMessage `json:"id"`
			Filename    string          `json:"filename"`
			Description string          `json:"description"`
		} `json:"attachments"`
	}
	json.Unmarshal(doc, &body)
	byIndex := map[int]upload{}
	for _, f := range files {
		byIndex[f.index] = f
	}
	var out []*discordgo.MessageAttachment
	if body.Attachments == nil {
		out = append(out, existing...)
		for _, f := range files {
			out = append(out, s.store(channelID, f, f.filename, ""))
		}
	} else {
		for i, a := range *body.Attachments {
			id := strings.Trim(string(a.ID), `"`)
			if kept := attachmentByID(existing, id); kept != nil {
				out = append(out, kept)
				continue
			}
			n, err := strconv.Atoi(id)
			f, ok := byIndex[n]
			if err != nil || !ok {
				return nil, invalidForm([]string{"attachments", strconv.Itoa(i), "id"}, "ATTACHMENT_NOT_FOUND", "Unknown attachment "+id+".")
			}
			name := f.filename
			if a.Filename != "" {
				name = a.Filename
			}
			out = append(out, s.store(channelID, f, name, a.Description))
		}
	}
	if len(out) > maxFiles {
		return nil, invalidForm([]string{"attachments"}, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxFiles))
	}
	for i, e := range embeds {
		for field, url := range embedURLs(e) {
			name, ok := strings.CutPrefix(url, "attachment://")
			if ok && attachmentByName(out, name) == nil {
				return nil, invalidForm([]string{"embeds", strconv.Itoa(i), field, "url"}, "ATTACHMENT_NOT_FOUND", "No attachment named "+name+" on the message.")
			}
		}
	}
	return out, nil
}

// embedURLs are the picture URLs of an embed, by field.
func embedURLs(e *discordgo.MessageEmbed) map[string]string {
	out := map[string]string{}
	if e.Image != nil {
		out["image"] = e.Image.URL
	}
	if e.Thumbnail != nil {
		out["thumbnail"] = e.Thumbnail.URL
	}
	if e.Author != nil && e.Author.IconURL != "" {
		out["author"] = e.Author.IconURL
	}
	if e.Footer != nil && e.Footer.IconURL != "" {
		out["footer"] = e.Footer.IconURL
	}
	return out
}

func attachmentByID(as []*discordgo.MessageAttachment, id string) *discordgo.MessageAttachment {
	for _, a := range as {
		if a.ID == id {
			return a
		}
	}
	return nil
}

func attachmentByName(as []*discordgo.MessageAttachment, name string) *discordgo.MessageAttachment {
	for _, a := range as {
		if a.Filename == name {
			return a
		}
	}
	return nil
}

// store keeps an uploaded file as an attachment, its bytes for tests.
func (s *Server) store(channelID string, f upload, name, description string) *discordgo.MessageAttachment {
	id := s.newID()
	a := &discordgo.MessageAttachment{ID: id, Filename: name, Size: len(f.data), ContentType: f.contentType,
		URL: "https://cdn.discordapp.com/attachments/" + channelID + "/" + id + "/" + name}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(f.data)); err == nil {
		a.Width, a.Height = cfg.Width, cfg.Height
	}
	sum := sha256.Sum256(f.data)
	s.mu.Lock()
	s.files[id] = f.data
	s.sums[id] = sum
	s.mu.Unlock()
	return a
}

// File returns the bytes of an attachment of a message by its filename.
func (s *Server) File(m Message, filename string) ([]byte, bool) {
	a := attachmentByName(m.Attachments, filename)
	if a == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.files[a.ID]
	return data, ok
}
