"""Code that runs on CPython and on the MicroPython unix port alike: the simulated parts
(fakes/), the fairness statistics, the screens' cases. Imports nothing."""
