// A minimal VS Code client for `ttlayout lsp`: starts the server over stdio for .ttgir and .mlir files, passes
// the `ttlayout.*` settings as initializationOptions and keeps them in sync; the server's log is the "ttlayout"
// output channel.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function settings() {
  const c = vscode.workspace.getConfiguration("ttlayout");
  return {
    wasteThreshold: c.get("wasteThreshold"),
    inlayHints: c.get("inlayHints"),
    debounceMs: c.get("debounceMs"),
    budgetSeconds: c.get("budgetSeconds"),
  };
}

function activate(context) {
  const command = vscode.workspace.getConfiguration("ttlayout").get("path", "ttlayout");
  const serverOptions = { command, args: ["lsp"], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "ttgir" },
      { scheme: "file", language: "mlir" },
      { scheme: "untitled", language: "ttgir" },
    ],
    initializationOptions: settings(),
    synchronize: { configurationSection: "ttlayout" },
    outputChannelName: "ttlayout",
  };
  client = new LanguageClient("ttlayout", "ttlayout", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
