"""Helpers shared by several test packages."""
