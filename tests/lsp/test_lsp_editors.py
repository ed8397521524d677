"""The editor setups of editors/: the VS Code extension starts `ttlayout lsp` over stdio with the settings as
initializationOptions (run under node with stand-ins for the `vscode` and `vscode-languageclient` modules), and
the Neovim and Helix files say the same command."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from golden_cases import ROOT

EDITORS = ROOT / "editors"
NODE = shutil.which("node")

VSCODE_STUB = """
exports.workspace = { getConfiguration: () => ({ get: (key, fallback) => ({ wasteThreshold: 2, inlayHints: true,
  debounceMs: 300, budgetSeconds: 2 })[key] ?? fallback }) };
"""
CLIENT_STUB = """
exports.TransportKind = { stdio: 0, ipc: 1 };
exports.LanguageClient = class {
  constructor(id, name, server, client) { global.made = { id, name, server, client }; }
  start() { global.started = true; return Promise.resolve(); }
  stop() { return Promise.resolve(); }
  dispose() {}
};
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_vscode_extension_starts_ttlayout_lsp(tmp_path):
    modules = tmp_path / "node_modules"
    (modules / "vscode").mkdir(parents=True)
    (modules / "vscode" / "index.js").write_text(VSCODE_STUB, encoding="utf-8")
    (modules / "vscode-languageclient").mkdir()
    (modules / "vscode-languageclient" / "node.js").write_text(CLIENT_STUB, encoding="utf-8")
    script = (f"const ext = require({json.dumps(str(EDITORS / 'vscode' / 'extension.js'))});"
              "const context = { subscriptions: [] }; ext.activate(context);"
              "console.log(JSON.stringify({ made: global.made, started: global.started, "
              "subscribed: context.subscriptions.length }));")
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=60,
                          env={"NODE_PATH": str(modules), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["started"] and found["subscribed"] == 1
    assert found["made"]["server"] == {"command": "ttlayout", "args": ["lsp"], "transport": 0}
    client = found["made"]["client"]
    assert client["initializationOptions"] == {"wasteThreshold": 2, "inlayHints": True, "debounceMs": 300,
                                               "budgetSeconds": 2}
    assert {"scheme": "file", "language": "ttgir"} in client["documentSelector"]
    package = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    assert package["main"] == "./extension.js" and "vscode-languageclient" in package["dependencies"]
    declared = {k.split(".", 1)[1] for k in package["contributes"]["configuration"]["properties"]} - {"path"}
    assert declared == set(client["initializationOptions"])


def test_neovim_and_helix_start_the_same_command():
    lua = (EDITORS / "neovim" / "ttlayout.lua").read_text(encoding="utf-8")
    assert 'cmd = { "ttlayout", "lsp" }' in lua and "vim.lsp.start(" in lua
    tomllib = pytest.importorskip("tomllib")
    helix = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text(encoding="utf-8"))
    server = helix["language-server"]["ttlayout"]
    assert (server["command"], server["args"]) == ("ttlayout", ["lsp"])
    assert helix["language"][0]["language-servers"] == ["ttlayout"]
    assert set(server["config"]) <= {"wasteThreshold", "inlayHints", "debounceMs", "budgetSeconds", "maxSectionChars"}
