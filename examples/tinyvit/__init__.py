"""A small vision transformer, written the way real training code is written."""
