-- For editors/screenshot.sh: Neovim with `ttlayout lsp` attached (vim.lsp.start where there is one), the cursor on
-- a tensor type of the kernel, and the hover opened as a user's K opens it.
vim.cmd("syntax on")
vim.opt.number = true
vim.cmd("highlight NormalFloat ctermbg=235 ctermfg=252")
vim.cmd("highlight FloatBorder ctermbg=235 ctermfg=244")
vim.lsp.handlers["textDocument/hover"] = vim.lsp.with(vim.lsp.handlers.hover, { border = "rounded" })
local config = { name = "ttlayout", cmd = { "ttlayout", "lsp" }, root_dir = vim.fn.getcwd() }
local id
if vim.lsp.start then
  id = vim.lsp.start(config)
else
  id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(0, id)
end
vim.wait(30000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.server_capabilities ~= nil
end, 50)
vim.fn.search("tensor<128x64xi32, #blocked>")
vim.cmd("normal! zt")
vim.cmd("normal! \25")                   -- one line of context above the cursor: the hover opens below it
vim.defer_fn(function() vim.lsp.buf.hover() end, 1500)
