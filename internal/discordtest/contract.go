package discordtest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The contract is Discord's own OpenAPI description of its HTTP API
// (testdata/discord-openapi, MIT): the fake routes requests by its paths and
// validates every JSON body against the operation's request schema, so a
// body Discord would refuse is refused here too.
//
// The validator is github.com/santhosh-tekuri/jsonschema/v6: OpenAPI 3.1
// schemas are JSON Schema 2020-12, which it implements in full (it passes
// the official JSON-Schema-Test-Suite), it resolves $refs inside one large
// document, and its errors carry the instance location that Discord's
// answer names. It has no dependencies beyond golang.org/x/text.

//go:embed testdata/discord-openapi/openapi.json.gz
var openAPIGzip []byte

// specURL is the name the spec is registered under with the validator.
const specURL = "https://discord.com/api/openapi.json"

// route is one operation of the spec: a method on a path template.
type route struct {
	Method   string
	Template string   // e.g. /channels/{channel_id}/messages
	segments []string // the template split on "/"
	hasBody  bool     // the operation takes a JSON request body
}

// contract is the parsed spec: its routes, and request schemas compiled on
// first use.
type contract struct {
	routes   []route
	compiler *jsonschema.Compiler
	// locales are the locales Discord knows: AvailableLocalesEnum's.
	locales map[string]bool

	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema
	// verdicts are validate's answers by operation and body (its
	// SHA-256): a body is checked against its schema once, however often
	// it is sent. A test run repeats about a third of its bodies (a
	// seat's view, the same command in every test), and the check is
	// the fake's largest cost.
	verdicts sync.Map
}

// verdict is validate's answer to one body: nil when it is valid.
type verdict struct{ refused *apiError }

var (
	loadOnce   sync.Once
	loaded     *contract
	loadFailed error
)

// theContract parses the embedded spec once for every fake in the process:
// it is 1.2 MB of JSON and never changes.
func theContract() (*contract, error) {
	loadOnce.Do(func() { loaded, loadFailed = loadContract(openAPIGzip) })
	return loaded, loadFailed
}

// loadContract reads a gzipped OpenAPI 3.1 document.
func loadContract(gz []byte) (*contract, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("discordtest: spec: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(zr)
	if err != nil {
		return nil, fmt.Errorf("discordtest: spec: %w", err)
	}
	c := &contract{compiler: jsonschema.NewCompiler(), schemas: map[string]*jsonschema.Schema{}}
	c.compiler.DefaultDraft(jsonschema.Draft2020)
	components, _ := doc.(map[string]any)["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	c.locales = enumConsts(schemas["AvailableLocalesEnum"])
	discriminate(doc, schemas)
	if err := c.compiler.AddResource(specURL, doc); err != nil {
		return nil, fmt.Errorf("discordtest: spec: %w", err)
	}
	paths, _ := doc.(map[string]any)["paths"].(map[string]any)
	for template, item := range paths {
		ops, _ := item.(map[string]any)
		for method, op := range ops {
			m := strings.ToUpper(method)
			switch m {
			case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			default:
				continue // "parameters" and the like
			}
			_, hasBody := op.(map[string]any)["requestBody"]
			c.routes = append(c.routes, route{Method: m, Template: template, segments: strings.Split(template, "/"), hasBody: hasBody})
		}
	}
	// The most literal template wins: /messages/@original before
	// /messages/{message_id}.
	slices.SortFunc(c.routes, func(a, b route) int { return literals(b.segments) - literals(a.segments) })
	return c, nil
}

// discriminate rewrites, in place, every oneOf or anyOf whose alternatives
// are all schemas told apart by the enum of their "type" property (the
// component types, the interaction response types) into a switch on
// "type": the alternative the type names is the one validated, as Discord
// does. A body then costs one alternative's check instead of all of them,
// and a refusal names the field of the alternative the body meant. A body
// whose type no alternative has is refused; one without a type too, which
// is at least as strict as the union.
func discriminate(node any, schemas map[string]any) {
	switch n := node.(type) {
	case map[string]any:
		for _, key := range []string{"oneOf", "anyOf"} {
			alts, ok := n[key].([]any)
			if !ok {
				continue
			}
			if cases, ok := typeSwitch(alts, schemas); ok {
				delete(n, key)
				all, _ := n["allOf"].([]any)
				n["allOf"] = append(all, cases...)
			}
		}
		for _, v := range n {
			discriminate(v, schemas)
		}
	case []any:
		for _, v := range n {
			discriminate(v, schemas)
		}
	}
}

// typeSwitch turns alternatives into a switch on "type", if each is a
// $ref to a schema with its own, disjoint, "type" enum.
func typeSwitch(alts []any, schemas map[string]any) ([]any, bool) {
	var all []any
	seen := map[string]bool{}
	cases := []any{}
	for _, alt := range alts {
		m, ok := alt.(map[string]any)
		ref, _ := m["$ref"].(string)
		name, isSchema := strings.CutPrefix(ref, "#/components/schemas/")
		if !ok || len(m) != 1 || !isSchema {
			return nil, false
		}
		target, _ := schemas[name].(map[string]any)
		props, _ := target["properties"].(map[string]any)
		typ, _ := props["type"].(map[string]any)
		values, _ := typ["enum"].([]any)
		if len(values) == 0 {
			return nil, false
		}
		for _, v := range values {
			// Numbers come as json.Number from the spec's decoder.
			key := fmt.Sprint(v)
			if seen[key] {
				return nil, false
			}
			seen[key] = true
			all = append(all, v)
		}
		cases = append(cases, map[string]any{
			"if":   map[string]any{"required": []any{"type"}, "properties": map[string]any{"type": map[string]any{"enum": values}}},
			"then": map[string]any{"$ref": ref},
		})
	}
	head := map[string]any{"required": []any{"type"}, "properties": map[string]any{"type": map[string]any{"enum": all}}}
	return append([]any{head}, cases...), true
}

// literals counts a template's fixed segments.
func literals(segments []string) int {
	n := 0
	for _, s := range segments {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

// match finds the operation for a method and a path below /api/v9, and the
// values of its parameters.
func (c *contract) match(method, path string) (route, map[string]string, bool) {
	segs := strings.Split(path, "/")
	for _, r := range c.routes {
		if r.Method != method || len(r.segments) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for i, s := range r.segments {
			switch {
			case strings.HasPrefix(s, "{"):
				if segs[i] == "" {
					ok = false
				}
				params[strings.Trim(s, "{}")] = segs[i]
			case s != segs[i]:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok {
			return r, params, true
		}
	}
	return route{}, nil, false
}

// schema returns the compiled JSON request schema of an operation.
func (c *contract) schema(r route) (*jsonschema.Schema, error) {
	key := r.Method + " " + r.Template
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.schemas[key]; ok {
		return s, nil
	}
	ptr := "#/paths/" + pointerEscape(r.Template) + "/" + strings.ToLower(r.Method) + "/requestBody/content/application~1json/schema"
	s, err := c.compiler.Compile(specURL + ptr)
	if err != nil {
		return nil, fmt.Errorf("discordtest: compile %s: %w", key, err)
	}
	c.schemas[key] = s
	return s, nil
}

// pointerEscape escapes a JSON Pointer token.
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// requestJSON returns the JSON document of a request body: the body itself,
// or the payload_json part of a multipart body. An empty body is nil.
func requestJSON(contentType string, body []byte) ([]byte, error) {
	if len(body) == 0 {
		return nil, nil
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("bad Content-Type %q", contentType)
	}
	switch mt {
	case "application/json":
		return body, nil
	case "multipart/form-data":
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		var payload []byte
		for {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			if part.FormName() == "payload_json" {
				var buf bytes.Buffer
				buf.ReadFrom(part)
				payload = buf.Bytes()
			}
		}
		return payload, nil
	}
	return nil, fmt.Errorf("unsupported Content-Type %q", mt)
}

// validate checks a JSON body against an operation's request schema and
// returns Discord's answer to a body it refuses, or nil.
func (c *contract) validate(r route, doc []byte) *apiError {
	if !r.hasBody || doc == nil {
		return nil
	}
	sum := sha256.Sum256(doc)
	key := r.Method + " " + r.Template + " " + string(sum[:])
	if v, ok := c.verdicts.Load(key); ok {
		return v.(verdict).refused
	}
	refused := c.check(r, doc)
	c.verdicts.Store(key, verdict{refused})
	return refused
}

// check is validate, uncached.
func (c *contract) check(r route, doc []byte) *apiError {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return &apiError{Status: 400, Code: 50109, Message: "The request body contains invalid JSON."}
	}
	s, err := c.schema(r)
	if err != nil {
		return &apiError{Status: 500, Code: 0, Message: err.Error()}
	}
	verr, ok := s.Validate(inst).(*jsonschema.ValidationError)
	if !ok {
		return nil
	}
	leaf := deepest(verr)
	loc := slices.Clone(leaf.InstanceLocation)
	if req, ok := leaf.ErrorKind.(*kind.Required); ok && len(req.Missing) > 0 {
		loc = append(loc, req.Missing[0])
	}
	return invalidForm(loc, schemaErrorCode(leaf.ErrorKind), leaf.ErrorKind.LocalizedString(printer))
}

var printer = message.NewPrinter(language.English)

// deepest returns the leaf error deepest in the instance: the field that
// is wrong. (Unions of component or response types are switched on their
// type by discriminate, so the alternative the body meant is the one whose
// errors are here.)
func deepest(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := e
	for _, c := range e.Causes {
		if d := deepest(c); best == e || len(d.InstanceLocation) > len(best.InstanceLocation) {
			best = d
		}
	}
	return best
}

// schemaErrorCode names a schema failure the way Discord's error codes do.
func schemaErrorCode(k jsonschema.ErrorKind) string {
	switch k.(type) {
	case *kind.Required:
		return "BASE_TYPE_REQUIRED"
	case *kind.MaxLength, *kind.MinLength, *kind.MaxItems, *kind.MinItems:
		return "BASE_TYPE_BAD_LENGTH"
	case *kind.Enum, *kind.Const:
		return "BASE_TYPE_CHOICES"
	case *kind.Maximum, *kind.Minimum:
		return "NUMBER_TYPE_MAX"
	case *kind.Type:
		return "BASE_TYPE_BAD_TYPE"
	}
	return "BASE_TYPE_INVALID"
}

// apiError is an error answer in Discord's shape.
type apiError struct {
	Status  int            `json:"-"`
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Errors  map[string]any `json:"errors,omitempty"`
	// Field is the dotted path of the field refused, for test messages.
	Field string `json:"-"`
}

// Error implements error.
func (e *apiError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%d %d %s: %s", e.Status, e.Code, e.Message, e.Field)
	}
	return fmt.Sprintf("%d %d %s", e.Status, e.Code, e.Message)
}

// invalidForm is Discord's 400 50035 "Invalid Form Body", whose errors
// object nests the field's path down to its _errors.
func invalidForm(path []string, code, msg string) *apiError {
	leaf := map[string]any{"_errors": []map[string]string{{"code": code, "message": msg}}}
	var node map[string]any = leaf
	for i := len(path) - 1; i >= 0; i-- {
		node = map[string]any{path[i]: node}
	}
	if len(path) == 0 {
		node = leaf
	}
	return &apiError{Status: 400, Code: 50035, Message: "Invalid Form Body", Errors: node, Field: strings.Join(path, ".") + " " + code}
}

// write sends the error.
func (e *apiError) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	json.NewEncoder(w).Encode(e)
}
