// Placeholder source for a library folder that has no files yet.
