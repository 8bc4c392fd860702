// The warbook extension: starts the language server (`warbook lsp`) for .rules files.
// Colouring comes from the TextMate grammar in syntaxes/; everything else from the server.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("warbook").get("server.command", ["warbook", "lsp"]);
  const serverOptions = { command, args }; // stdin and stdout, the server's one transport
  const clientOptions = { documentSelector: [{ scheme: "file", language: "warbook" }] };
  client = new LanguageClient("warbook", "warbook language server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
