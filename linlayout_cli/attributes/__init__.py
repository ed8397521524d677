"""Layout attributes: the records (`encodings`), their parser (`build`), their checks (`verify`) and the release
tables (`releases`, loaded only for --triton)."""

# The Triton release whose text print prints and whose compiler convert, bank, swizzle, audit and advise model.
TRITON = "3.9"

# The Triton release this run models (`releases.Release`, set by --triton / TTLAYOUT_TRITON for one run); None is
# Triton 3.9, the default, and then the release tables are never imported.
active_release = None
