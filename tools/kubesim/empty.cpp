// Keeps kubesim_core non-empty.
