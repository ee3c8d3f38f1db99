"""Digital Hikone Carrom (彦根カロム).

Layers (each imports only the ones above it, see docs/architecture.md):
``board`` -> ``physics`` -> ``rules`` -> ``match`` -> ``records`` / ``ai`` / ``server`` / ``cli``.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
