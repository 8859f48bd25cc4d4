"""Host simulator and tools: CPython over the very same firmware/bobing modules."""
from host_sim import compat

compat.install()
