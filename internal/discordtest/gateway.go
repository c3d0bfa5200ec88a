package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/gorilla/websocket"
)

// gateway is one bot connection to the fake gateway.
type gateway struct {
	conn   *websocket.Conn
	mu     sync.Mutex // serialises writes
	seq    int
	closed bool
	// shard is the shard the connection identified as: id of count.
	shard [2]int
	// dispatched counts the interactions sent on it.
	dispatched int
}

// frame is a gateway payload.
type frame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d,omitempty"`
	S  *int            `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// serveGateway speaks the gateway protocol: HELLO, then IDENTIFY → READY or
// RESUME → RESUMED, heartbeat ACKs, and dispatches sent by Dispatch.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	g := &gateway{conn: conn}
	s.mu.Lock()
	s.gateways = append(s.gateways, g)
	s.mu.Unlock()
	defer g.close()
	if g.send(10, "", map[string]any{"heartbeat_interval": 41250}) != nil {
		return
	}
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			return
		}
		var f frame
		if json.Unmarshal(data, &f) != nil {
			continue
		}
		switch f.Op {
		case 1: // heartbeat
			g.send(11, "", nil)
		case 2: // identify
			var id struct {
				Shard *[2]int `json:"shard"`
			}
			json.Unmarshal(f.D, &id)
			shard := [2]int{0, 1}
			if id.Shard != nil {
				shard = *id.Shard
			}
			if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
				// Discord closes the connection: 4010 Invalid shard.
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4010, "Invalid shard"))
				return
			}
			s.mu.Lock()
			s.identifies++
			g.shard = shard
			s.mu.Unlock()
			g.send(0, "READY", map[string]any{
				"v":                  9,
				"session_id":         "fake-session",
				"resume_gateway_url": "ws://" + r.Host + "/gateway-ws",
				"user":               map[string]any{"id": s.BotUserID, "username": "Cribbage", "bot": true},
				"application":        map[string]any{"id": s.AppID},
				"guilds":             []any{},
			})
			s.readyCh <- struct{}{}
		case 6: // resume
			s.mu.Lock()
			s.resumes++
			s.mu.Unlock()
			g.send(0, "RESUMED", map[string]any{})
			s.readyCh <- struct{}{}
		}
	}
}

// send writes one frame; dispatches (op 0) get the next sequence number.
// The event is encoded before the connection is taken, and the frame is
// written around it as it is: encoding it again (WriteJSON) would only
// check and copy it a second time.
func (g *gateway) send(op int, t string, d any) error {
	raw := []byte("null")
	if d != nil {
		var err error
		if raw, err = json.Marshal(d); err != nil {
			return err
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errors.New("discordtest: gateway closed")
	}
	buf := make([]byte, 0, len(raw)+64)
	buf = append(buf, `{"op":`...)
	buf = strconv.AppendInt(buf, int64(op), 10)
	buf = append(buf, `,"d":`...)
	buf = append(buf, raw...)
	if op == 0 {
		g.seq++
		buf = append(buf, `,"s":`...)
		buf = strconv.AppendInt(buf, int64(g.seq), 10)
	}
	if t != "" {
		buf = append(buf, `,"t":`...)
		buf = strconv.AppendQuote(buf, t) // an event's name is plain ASCII: Go's quoting is JSON's
	}
	buf = append(buf, '}')
	return g.conn.WriteMessage(websocket.TextMessage, buf)
}

// close ends the connection.
func (g *gateway) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		g.conn.Close()
	}
}

// Dispatch sends an event to the newest open gateway connection.
func (s *Server) Dispatch(t string, d any) error {
	guild := ""
	switch i := d.(type) {
	case *discordgo.Interaction:
		guild = i.GuildID
	case wireInteraction:
		guild = i.GuildID
	}
	s.mu.Lock()
	var g *gateway
	for i := len(s.gateways) - 1; i >= 0; i-- {
		if gw := s.gateways[i]; !gw.closed && gw.shard[0] == shardOf(guild, gw.shard[1]) {
			g = gw
			break
		}
	}
	if g != nil {
		g.dispatched++
	}
	s.mu.Unlock()
	if g == nil {
		return fmt.Errorf("discordtest: no bot connected for guild %q's shard", guild)
	}
	return g.send(0, t, d)
}

// shardOf is the shard a guild's events go to, as Discord computes it:
// (guild_id >> 22) % shard count; direct messages go to shard 0.
func shardOf(guildID string, count int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// SetShards is the shard count /gateway/bot recommends (1 unless set).
func (s *Server) SetShards(n int) {
	s.mu.Lock()
	s.shards = n
	s.mu.Unlock()
}

// Shards returns the shard each open gateway connection identified as and
// how many interactions it was sent.
func (s *Server) Shards() map[[2]int]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[[2]int]int{}
	for _, g := range s.gateways {
		if !g.closed {
			out[g.shard] += g.dispatched
		}
	}
	return out
}

// DropConnections closes every gateway connection, as Discord does when it
// asks a bot to reconnect.
func (s *Server) DropConnections() {
	s.mu.Lock()
	gws := append([]*gateway(nil), s.gateways...)
	s.mu.Unlock()
	for _, g := range gws {
		g.close()
	}
}
