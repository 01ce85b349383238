package kit

import (
	"encoding/json"
	"fmt"
)

// outboxPost is what of a Response a message posted from the outbox
// keeps: what Discord shows.
type outboxPost struct {
	Content      string   `json:"content,omitempty"`
	Embeds       []Embed  `json:"embeds,omitempty"`
	Rows         []Row    `json:"rows,omitempty"`
	Files        []File   `json:"files,omitempty"`
	MentionUsers []string `json:"mention_users,omitempty"`
}

// EncodePost encodes the message r posts, for the outbox (db.OutboxMessage):
// its content, embeds, buttons, files and mentions.
func EncodePost(r Response) ([]byte, error) {
	b, err := json.Marshal(outboxPost{Content: r.Content, Embeds: r.Embeds, Rows: r.Rows, Files: r.Files, MentionUsers: r.MentionUsers})
	if err != nil {
		return nil, fmt.Errorf("encode a post: %w", err)
	}
	return b, nil
}

// DecodePost is the message EncodePost encoded, as a Response to post.
func DecodePost(b []byte) (Response, error) {
	var p outboxPost
	if err := json.Unmarshal(b, &p); err != nil {
		return Response{}, fmt.Errorf("decode a post: %w", err)
	}
	return Response{Type: Message, Content: p.Content, Embeds: p.Embeds, Rows: p.Rows, Files: p.Files, MentionUsers: p.MentionUsers}, nil
}
