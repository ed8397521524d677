"""ttlayout: Triton GPU layout inspector (tensor and hardware views, bank conflicts)."""

__all__ = ["LinearLayout", "advise", "audit", "layout", "__version__"]


def __getattr__(name):
    # Lazy, so `ttlayout --help` does not pay for numpy (nor the print path for resources.py).
    if name == "__version__":
        from .resources import VERSION
        return VERSION
    if name == "LinearLayout":
        from .engine.linear_layout import LinearLayout
        return LinearLayout
    if name == "layout":
        from .notebook import layout
        return layout
    if name == "audit":
        from .notebook import audit
        return audit
    if name == "advise":
        from .notebook import advise
        return advise
    raise AttributeError(name)
