package commands

// registerArc adds /arc, the rules of seed arc (see rules/arc).
func (h *handlers) registerArc(r *Router) {}
