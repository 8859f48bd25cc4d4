"""The prize desk: a small Django application at the kiosk's prize
counter. It knows every award of every bowl (from the bowls' journals, through
ingest.ingest), redeems each claim code exactly once, and shows stock, a report
and a forecast. `python -m host_sim.desk serve` (or `make desk`) starts it;
host_sim/desk/README.md is the reference."""
