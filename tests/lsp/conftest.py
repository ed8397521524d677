"""The language server's tests: `ttlayout lsp` started as a subprocess and spoken to by pytest-lsp's client (the
`client` fixture), and by Neovim. Skipped where the lsp extra is not installed."""
from __future__ import annotations

import sys

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

import pytest_lsp  # noqa: E402
from lsprotocol import types as t  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

SERVER = [sys.executable, "-m", "linlayout_cli", "lsp"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, request):
    """A client with an initialized session; a test marked `lsp_options({...})` passes initializationOptions."""
    marker = request.node.get_closest_marker("lsp_options")
    options = marker.args[0] if marker else None
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=t.ClientCapabilities(), initialization_options=options))
    yield
    await lsp_client.shutdown_session()


def pytest_configure(config):
    config.addinivalue_line("markers", "lsp_options(dict): initializationOptions for the server under test")
