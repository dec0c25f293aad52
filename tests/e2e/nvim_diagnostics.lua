-- Headless Neovim check for tests/test_editor_e2e.py: attach Neovim's built-in LSP client to
-- the tclint server for the current buffer, wait for diagnostics, print each one as a line
--   DIAG <line>:<col> <code> <message>        (1-based line and column)
-- and quit with 0 once a diagnostic arrived, 1 if none came within the timeout (or the server
-- exited first), 2 on a usage error. Works with Neovim 0.7 (Debian 12) and 0.8+.
-- Environment: TCLINT_SERVER  the server's executable (absolute path; started as `<it> server`)
--              TCLINT_TIMEOUT seconds to wait (default 30)
-- Usage: nvim --headless --clean -u NONE -n -c "luafile nvim_diagnostics.lua" FILE.py
local function out(s) io.stdout:write(s .. '\n'); io.stdout:flush() end
local server = os.getenv('TCLINT_SERVER')
local timeout_ms = tonumber(os.getenv('TCLINT_TIMEOUT') or '30') * 1000
local exited, stopping = false, false

local function quit(code)
  stopping = true
  local clients = (vim.lsp.get_clients or vim.lsp.get_active_clients)()
  for _, c in pairs(clients) do vim.lsp.stop_client(c.id, true) end
  vim.wait(3000, function() return exited end, 20)   -- let the server shut down before we go
  if code == 0 then vim.cmd('qall!') else vim.cmd('cquit ' .. code) end
end

if not server or server == '' then out('ERROR: set TCLINT_SERVER'); quit(2) end

local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = 'python'   -- `-u NONE` turns filetype detection off; this is the languageId
local fname = vim.api.nvim_buf_get_name(buf)
local config = {
  name = 'tclint',
  cmd = { server, 'server' },
  root_dir = vim.fn.fnamemodify(fname, ':p:h'),
  on_exit = function(code, signal)
    exited = true
    if not stopping then out(('server exited early: code=%s signal=%s'):format(code, signal)) end
  end,
}
local t0 = vim.loop.hrtime()
local id
if vim.lsp.start then                   -- 0.8+
  id = vim.lsp.start(config, { bufnr = buf })
else                                    -- 0.7
  id = vim.lsp.start_client(config)
  if id then vim.lsp.buf_attach_client(buf, id) end
end
if not id then out('ERROR: could not start the language client'); quit(2) end

local ok = vim.wait(timeout_ms, function() return exited or #vim.diagnostic.get(buf) > 0 end, 50)
local diags = vim.diagnostic.get(buf)
local v = vim.version()
out(('NVIM %d.%d.%d: %d diagnostic(s) after %.2fs'):format(v.major, v.minor, v.patch, #diags,
  (vim.loop.hrtime() - t0) / 1e9))
for _, d in ipairs(diags) do
  -- 0.10+ keeps the LSP code in d.code; 0.7-0.9 only in user_data.lsp.code
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  out(('DIAG %d:%d %s %s'):format(d.lnum + 1, d.col + 1, tostring(code), d.message))
end
if exited and #diags == 0 then quit(1)
elseif not ok or #diags == 0 then out('FAIL: no diagnostics within the timeout'); quit(1)
else quit(0) end
