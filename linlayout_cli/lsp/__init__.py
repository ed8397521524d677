"""`ttlayout lsp`: layouts, costs and advice inside the editor, as a Language Server (the optional `lsp` extra:
pygls and lsprotocol). `server` speaks the protocol; `document` indexes a file's text; `hover` writes what is
shown; `model` is the one adapter to ttlayout's parsing, analyses and reports."""
