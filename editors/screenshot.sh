#!/usr/bin/env bash
# The README's picture of a hover: Neovim in an xterm on a virtual X display (Xvfb), captured with ImageMagick.
#   apt-get install neovim xvfb xterm imagemagick fonts-dejavu-core; pip install '.[lsp]'
#   editors/screenshot.sh docs/pictures/lsp_hover.png
set -euo pipefail
out=${1:-docs/pictures/lsp_hover.png}
here=$(cd "$(dirname "$0")" && pwd)
kernel=$here/../tests/data/kernels/matmul_epilogue_transpose.sm80.ttgir
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1500x1020x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xterm $xvfb 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$display xterm -geometry 166x56+0+0 -fa 'DejaVu Sans Mono' -fs 10 -bg '#1e1e1e' -fg '#d4d4d4' \
    -e nvim -u NONE -i NONE -n "$kernel" -c "luafile $here/screenshot.lua" &
xterm=$!
sleep "${WAIT:-12}"
DISPLAY=$display import -window root -crop 1500x1000+0+0 "$out"
echo "wrote $out"
