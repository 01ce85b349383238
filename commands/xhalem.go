package commands

// registerXhalem adds /xhalem, the rules of seed xhalem (see rules/xhalem).
func (h *handlers) registerXhalem(r *Router) {}
