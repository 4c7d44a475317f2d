"""Usurper: the application (usurper.app) and the shipped data (usurper.data)."""
