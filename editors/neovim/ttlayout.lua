-- `ttlayout lsp` in Neovim 0.8+ (vim.lsp.start): put this in your init.lua, or :luafile it. K hovers, [d / ]d walk
-- the diagnostics, vim.lsp.buf.code_action() offers advise's changes on an alias line.
vim.filetype.add({ extension = { ttgir = "ttgir" } })
vim.api.nvim_create_autocmd("FileType", {
  pattern = { "ttgir", "mlir" },
  callback = function(args)
    vim.lsp.start({
      name = "ttlayout",
      cmd = { "ttlayout", "lsp" },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
      init_options = { wasteThreshold = 0, inlayHints = false },
    })
  end,
})
