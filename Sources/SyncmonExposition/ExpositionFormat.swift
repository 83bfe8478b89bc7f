// Placeholder; replaced by the exposition writer.
