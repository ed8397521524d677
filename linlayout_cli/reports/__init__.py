"""Reports: each analysis result written as blocks (plain text or rich, see `blocks`) and as JSON."""
