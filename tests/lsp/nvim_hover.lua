-- Neovim (0.7 and later) with `ttlayout lsp` attached to the current buffer: hover at a position and write the
-- hover's text to a file, then quit. Driven by tests/lsp/test_lsp_neovim.py through environment variables:
-- TTLAYOUT_LSP_CMD (the server's command line, JSON), TTLAYOUT_HOVER_LINE / _COL (0-based), TTLAYOUT_HOVER_OUT.
local cmd = vim.fn.json_decode(os.getenv("TTLAYOUT_LSP_CMD"))
local line = tonumber(os.getenv("TTLAYOUT_HOVER_LINE"))
local col = tonumber(os.getenv("TTLAYOUT_HOVER_COL"))
local out = os.getenv("TTLAYOUT_HOVER_OUT")

local config = {name = "ttlayout", cmd = cmd, root_dir = vim.fn.getcwd()}
local id
if vim.lsp.start then                      -- Neovim 0.8+: the README's setup
  id = vim.lsp.start(config)
else                                       -- Neovim 0.7 (Debian 12's)
  id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(0, id)
end
vim.wait(60000, function()
  local client = vim.lsp.get_client_by_id(id)
  return client ~= nil and client.server_capabilities ~= nil
end, 50)

local params = {textDocument = vim.lsp.util.make_text_document_params(), position = {line = line, character = col}}
local results = vim.lsp.buf_request_sync(0, "textDocument/hover", params, 120000)
local text = ""
for _, r in pairs(results or {}) do
  if r.result and r.result.contents then
    text = text .. (r.result.contents.value or "")
  elseif r.err then
    text = text .. "error: " .. vim.inspect(r.err)
  end
end
local f = io.open(out, "w")
f:write(text)
f:close()
local client = vim.lsp.get_client_by_id(id)
local p = io.open(out .. ".pid", "w")                -- the server's process id, to check it is gone after
p:write(tostring(client and client.rpc and client.rpc.pid or 0))
p:close()
vim.cmd("qa!")
