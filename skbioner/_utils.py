"""Small helpers shared across subpackages."""

from __future__ import annotations

import contextlib
import gc

__all__ = ["gc_paused"]


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small objects.

    Reading a corpus or featurizing it allocates about one small object per
    token or word type, none of it cyclic garbage; with hundreds of thousands
    of tracked objects alive, the collector's full scans would otherwise cost
    about as much as the work itself.  The previous state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
