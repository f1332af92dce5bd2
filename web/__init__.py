"""Thin Flask blueprints over the scoring, tables and recognition packages."""
