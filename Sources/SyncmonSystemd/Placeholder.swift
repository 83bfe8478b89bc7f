// Placeholder; replaced by the systemd adapter.
