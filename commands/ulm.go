package commands

// registerUlm adds /ulm, the rules of seed ulm (see rules/ulm).
func (h *handlers) registerUlm(r *Router) {}
