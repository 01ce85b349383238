package commands

// registerBurst adds /burst, the rules of seed burst (see rules/burst).
func (h *handlers) registerBurst(r *Router) {}
