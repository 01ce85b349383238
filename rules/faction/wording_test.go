package faction

import (
	"strings"
	"testing"
)

// The faction game's words (issue 21): no "produce a Envoy", no "is at
// transit", no "arrives at: Ganymede".
func TestWording(t *testing.T) {
	for _, tt := range []struct {
		c    Change
		want string
	}{
		{Change{Subject: "Frigate #2", Field: "arrives at", To: "Ganymede"}, "Frigate #2 arrives at Ganymede"},
		{Change{Subject: "Envoy #10", Field: "captured by", To: "Red"}, "Envoy #10 captured by Red"},
		{Change{Subject: "Envoy #10", Field: "no action in round", To: "2"}, "Envoy #10 no action in round 2"},
		{Change{Subject: "Red", Field: "debt", To: "3"}, "Red debt: 3"},
		{Change{Subject: "Red", Field: "AP", From: "3", To: "2"}, "Red AP 3 -> 2"},
	} {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.c, got, tt.want)
		}
	}
	if got := at(""); got != "in transit" {
		t.Errorf("at(\"\") = %q", got)
	}
	if got := at("Mars"); got != "at Mars" {
		t.Errorf("at(\"Mars\") = %q", got)
	}
	c := world(t)
	out := do(t, c, "Red", order("produce-asset", 0, "chart", "Envoy"))
	if len(out.Questions) != 1 || !strings.Contains(out.Questions[0].Text, "May Red produce an Envoy (") {
		t.Errorf("the GM's question: %+v", out.Questions)
	}
}
