package arc

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// suggestThresholds offers the named thresholds with their values.
func (h *handlers) suggestThresholds(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.config()
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	for _, n := range cfg.ThresholdNames() {
		if strings.HasPrefix(n, strings.ReplaceAll(typed, " ", "_")) {
			choices = append(choices, kit.Choice{Name: fmt.Sprintf("%s (%d)", strings.ReplaceAll(n, "_", " "), cfg.Thresholds[n]), Value: n})
		}
	}
	return kit.Response{Choices: choices}, nil
}

// suggestSizes offers the size names with their steps from medium.
func (h *handlers) suggestSizes(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.config()
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	for i, n := range cfg.SizeNames {
		if strings.HasPrefix(strings.ToLower(n), typed) {
			choices = append(choices, kit.Choice{Name: fmt.Sprintf("%s (%+d)", n, i+rules.MinSize), Value: n})
		}
	}
	return kit.Response{Choices: choices}, nil
}

// suggestStats offers the stats of the sheet the option reads from (the
// opponent's for target_ options), with their values.
func (h *handlers) suggestStats(ctx context.Context, req *kit.Request) (kit.Response, error) {
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	if _, err := strconv.Atoi(typed); err == nil {
		choices = append(choices, kit.Choice{Name: typed, Value: typed})
	}
	name := req.Options.String("character")
	if strings.HasPrefix(req.Focused, "target_") {
		name = req.Options.String("target")
	}
	if name == "" {
		return kit.Response{Choices: choices}, nil
	}
	c, err := h.ReadCharacter(ctx, req, name)
	if errors.Is(err, db.ErrNotFound) || errors.Is(err, kit.ErrTwoSheets) {
		// No sheet, or two of the name: no stats to suggest.
		return kit.Response{Choices: choices}, nil
	}
	if err != nil {
		return kit.Response{}, fmt.Errorf("suggest stats of %s: %w", name, err)
	}
	for _, k := range slices.Sorted(maps.Keys(c.Stats)) {
		if strings.HasPrefix(k, typed) {
			choices = append(choices, kit.Choice{Name: fmt.Sprintf("%s (%d)", k, c.Stats[k]), Value: k})
		}
	}
	return kit.Response{Choices: choices}, nil
}
