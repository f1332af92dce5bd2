"""Use cases over storage and the domain: tables (create, record, correct, export) and events
(create, seat rounds, add games, standings). No Flask: web/ parses requests and calls these."""
