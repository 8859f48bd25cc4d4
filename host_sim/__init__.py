"""Host simulator and tools: CPython over the very same firmware/bobing modules.

Importing it changes nothing: each entry point (python -m host_sim, python -m host_sim.desk, the
desk's WSGI module, the tools and benches run by name, tests/conftest.py) calls
host_sim.compat.install() once, which makes the firmware's modules importable on CPython."""
