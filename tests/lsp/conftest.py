"""The language server's tests: `ttlayout lsp` started as a subprocess and spoken to by pytest-lsp's client (the
`client` fixture), and by Neovim. The modules that need the lsp extra skip themselves where it is missing."""
from __future__ import annotations

import sys

SERVER = [sys.executable, "-m", "linlayout_cli", "lsp", "--stdio"]     # as VS Code's client starts it

try:
    import pytest_lsp
    from lsprotocol import types as t
    from pytest_lsp import ClientServerConfig, LanguageClient
except ImportError:                                   # the test extra without pygls: test_lsp_command.py still runs
    pytest_lsp = None

if pytest_lsp is not None:
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
    async def client(lsp_client: LanguageClient, request):
        """A client with an initialized session; a test marked `lsp_options({...})` passes
        initializationOptions."""
        marker = request.node.get_closest_marker("lsp_options")
        options = marker.args[0] if marker else None
        await lsp_client.initialize_session(t.InitializeParams(
            capabilities=t.ClientCapabilities(), initialization_options=options))
        yield
        await lsp_client.shutdown_session()


def pytest_configure(config):
    config.addinivalue_line("markers", "lsp_options(dict): initializationOptions for the server under test")
